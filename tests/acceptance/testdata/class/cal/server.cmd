go run ../../servers/follows-symlinks serve -root {root}

go run ../../servers/invents-passage serve -root {root}

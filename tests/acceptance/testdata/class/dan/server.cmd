go run ../../servers/banner-on-stdout serve -root {root}

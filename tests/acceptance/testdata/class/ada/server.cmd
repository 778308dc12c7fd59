go run practice-notes serve -root {root}

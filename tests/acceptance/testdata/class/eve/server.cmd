eve-notes-server --root {root}

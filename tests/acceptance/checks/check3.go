package checks

var check3 = &Check{
	ID:      "3",
	Section: SectionAcceptance,
	Title:   "a valid file inside the root is readable",
	Hint:    "Search every regular .md file under the root, including subdirectories, and name the file each passage came from.",
}

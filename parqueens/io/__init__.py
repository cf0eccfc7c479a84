"""Reading and writing solutions: the formats, atomic files, pictures."""

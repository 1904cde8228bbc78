"""Event files the club tests share."""

# four players round-robin on two boards: three rounds of two games
ROUND_ROBIN_OF_FOUR = """\
name = "March"
game = "binaryon"
rules = { size = 4 }
pairing = "round-robin"
boards = ["t1", "t2"]
players = ["Ann", "Ben", "Cat", "Dan"]
"""

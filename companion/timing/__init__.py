"""The game's time: the pure clock (time controls, a clock told the time, snapshots) and a game
ended on time. Below the referee: they import nothing above companion/games/."""

"""Agreement with 18xx.games (1856, 1836Jr56): replays and traces of real and generated games, exports, self-play."""

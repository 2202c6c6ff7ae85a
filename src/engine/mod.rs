//! The rules of the ICFP 2015 game, exactly as the organisers' evaluator plays them.

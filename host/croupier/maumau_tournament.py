"""Headless Mau-Mau tournaments between computer players (`croupier play maumau --tournament`,
the benchmarks): independent one-round games, the starting seat taking turns."""
import math

from croupier.rules import new_game
from croupier.rules.maumau_bots import Bot, play_round
from croupier.rules.prng import Rng

Z95 = 1.959964  # two-sided 95% normal quantile


def seat_names(lineup):
    return ["Bot %d (strength %d)" % (seat + 1, strength) for seat, strength in enumerate(lineup)]


def play_rounds(lineup, rounds, seed, first=0, progress=None):
    """Rounds first .. first+rounds-1 of the tournament of seed: {"rounds", "lineup", "won",
    "points"}. won[i]: rounds seat i went out first; points[i]: the points seat i lost, as a
    negative total. Round r is a fresh game opened by seat r % seats. Each deal is played
    once from every seat (duplicate play: the deal goes round from the opening seat, so the
    same shuffle gives every seat each hand in turn), which takes much of the cards' luck out
    of the comparison. Seeds derive from (seed, r), so any slice of rounds can be played
    apart (in another process) and summed with merged(). progress(done, rounds), when given,
    is told after each round."""
    seats = len(lineup)
    won = [0] * seats
    points = [0] * seats
    names = seat_names(lineup)
    for r in range(first, first + rounds):
        game = new_game("maumau_match", names, {"starter": r % seats})
        bots = [Bot(strength, mix(seed, r, 1 + seat)) for seat, strength in enumerate(lineup)]
        won[play_round(game, bots, Rng(mix(seed, r // seats, 0)))] += 1
        for seat in range(seats):
            points[seat] += game.view(seat)["scores"][seat]
        if progress:
            progress(r - first + 1, rounds)
    return {"rounds": rounds, "lineup": list(lineup), "won": won, "points": points}


def mix(seed, index, salt):
    """A 32-bit seed for (tournament seed, round or deal index, salt)."""
    return Rng(seed).word() ^ ((index * 0x9E3779B1 + salt * 0x85EBCA6B) & 0xFFFFFFFF)


def merged(results):
    """The sum of play_rounds results over disjoint slices of one tournament."""
    total = {"rounds": 0, "lineup": results[0]["lineup"],
             "won": [0] * len(results[0]["won"]), "points": [0] * len(results[0]["points"])}
    for result in results:
        total["rounds"] += result["rounds"]
        for key in ("won", "points"):
            total[key] = [a + b for a, b in zip(total[key], result[key])]
    return total


def wilson(successes, trials, z=Z95):
    """The Wilson score interval (low, high) of a proportion, 95% by default."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (centre - spread) / scale, (centre + spread) / scale

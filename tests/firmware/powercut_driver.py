# Runs on the MicroPython unix port: random play through the real controller, rules and
# journal on a real littlefs, losing power at random block writes, over and over.
# After every power-up it checks the journal against what was confirmed before the cut.
# Usage: micropython powercut_driver.py SEED CUTS  -> prints one JSON summary line
import json
import random
import sys

from ramflash import RamFlash, mount
from croupier.controller import Controller, _replay as replay
from croupier.journal import Journal, JournalError
from croupier import journal_sync
from croupier.rules import new_game, Illegal

CARDS = {
    "lobo77": ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "22", "33", "-10", "0",
               "rev", "2x", "end"),
    "basta": ("1", "2", "3", "5", "8", "10", "0", "rev", "basta", "-5", "swap", "dbl:1"),
}


def replay_state(records):
    """The state a host would rebuild from every record (no snapshots, no journal code)."""
    game = None
    for record in records:
        kind, data = record[3], record[4]
        if kind == "new":
            game = new_game(data["game"], data["players"], data["options"])
        elif kind in ("end", "abandon"):
            game = None
        else:
            replay(game, kind, data)
    return None if game is None else game.state()


class Trial:
    def __init__(self, seed):
        random.seed(seed)
        self.rnd = random
        self.flash = RamFlash(blocks=48, seed=seed)
        self.path = "/flash"
        self.device = mount(self.flash, fresh=True)
        self.all = []  # every record confirmed so far, acked ones included
        self.cuts = 0
        self.power_ups = 0
        self.boot_of = {}  # boot number in the records' [boot, ms] -> the power-up that wrote them
        self.extras = 0  # records of an interrupted operation that survived
        self.power_up()

    def power_up(self):
        while True:
            self.power_ups += 1
            try:
                self.device = mount(self.flash)
                self.journal = Journal(self.path + "/journal")
                self.opened_at = self.journal.last_seq  # later records: resume() wrote them
                self.ctrl = Controller(self.journal)
                self.ctrl.resume()
                if not self.device.dead:
                    return
                self.cuts += 1  # the cut hit a write the boot carries on without (the head)
            except (OSError, JournalError):
                if not self.device.dead:
                    raise
                self.cuts += 1  # lost power while booting: boot again

    def step(self):
        rnd, ctrl = self.rnd, self.ctrl
        roll = rnd.random()
        if ctrl.game is None or ctrl.state()["over"] or roll < 0.02:
            name = rnd.choice(("lobo77", "basta"))
            ctrl.new(name, ["P%d" % i for i in range(rnd.randint(2, 5))], {})
        elif roll < 0.10:
            ctrl.undo()
        elif roll < 0.14:
            ctrl.redo()
        elif roll < 0.16:
            journal_sync.ack(self.journal, self.journal.last_seq)
        else:
            ctrl.play(rnd.choice(CARDS[ctrl.state()["game"]]))

    def confirm(self):
        """Take the records the last operation wrote into the confirmed list."""
        first = self.all[-1][0] + 1 if self.all else 1
        self.take(journal_sync.records(self.journal, first, 100), self.power_ups)

    def take(self, records, power_up):
        """Add records power-up number power_up wrote to the confirmed list; a boot number
        two power-ups stamped fails."""
        for record in records:
            boot = record[5][0]
            assert self.boot_of.setdefault(boot, power_up) == power_up, (
                "two power-ups stamped boot %d" % boot, record)
        self.all.extend(records)

    def run_until_cut(self):
        self.running = self.power_ups
        self.flash.cut_at = self.flash.writes + self.rnd.randint(1, 90)
        while True:
            try:
                self.step()
            except Illegal:
                continue
            except (OSError, JournalError):
                if not self.device.dead:
                    raise
                self.cuts += 1
                return
            if self.device.dead:  # the cut hit a write whose error littlefs swallowed (a
                self.cuts += 1  # file finaliser): the power went before the op could confirm
                return
            self.confirm()

    def check_after_power_up(self):
        confirmed = self.all
        last = confirmed[-1][0] if confirmed else 0
        survivors = journal_sync.records(self.journal, last + 1, 100)
        kept = journal_sync.records(self.journal, 0, 100000)
        # every confirmed record not yet acked is still there, unchanged, in order
        if kept:
            tail = [r for r in confirmed if r[0] >= kept[0][0]]
            for a, b in zip(kept, tail):
                assert a == b, ("confirmed record changed", a, b)
            assert len(kept) >= len(tail), ("confirmed records lost", kept[-1:], tail[-1:])
        assert self.journal.last_seq == last + len(survivors), "seq gap or duplicate"
        assert len(survivors) <= 2, ("more records than one operation writes", survivors)
        for i in range(len(survivors)):
            assert survivors[i][0] == last + 1 + i
        self.extras += len(survivors)
        for record in survivors:  # of the operation the cut hit, or resume()'s `end`
            self.take([record], self.power_ups if record[0] > self.opened_at else self.running)
        expected = replay_state(self.all)
        assert self.ctrl.state() == expected, ("resumed state differs", self.ctrl.state(), expected)


def main():
    seed, want = int(sys.argv[1]), int(sys.argv[2])
    trial = Trial(seed)
    while trial.cuts < want:
        trial.run_until_cut()
        trial.power_up()
        trial.check_after_power_up()
    print(json.dumps({"cuts": trial.cuts, "records": len(trial.all), "extras": trial.extras,
                      "last_seq": trial.journal.last_seq, "boots": trial.journal.boots,
                      "stamped_boots": len(trial.boot_of), "power_ups": trial.power_ups,
                      "writes": trial.flash.writes}))


main()

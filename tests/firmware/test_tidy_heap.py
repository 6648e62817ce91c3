"""The heap is tidied where a pause costs least (after a frame, before an answer), and only
when it is short of room: a collection marks the whole live heap, tens of ms on the chip."""
import json

TIDY = r'''
import gc, json
import croupier

gc.collect()
junk = [bytearray(64) for _ in range(100)]  # garbage, once dropped
junk = None
before = gc.mem_alloc()
croupier.tidy_heap()
out = {"kept_with_room": gc.mem_alloc() >= before}  # a collection frees the junk
hog = []
while gc.mem_free() > croupier.HEAP_RESERVE + 8192:  # in use for good
    hog.append(bytearray(1024))
junk = [bytearray(64) for _ in range(150)]
junk = None
short = gc.mem_free()
croupier.tidy_heap()
out["short_of_room"] = short < croupier.HEAP_RESERVE
out["collected_when_short"] = gc.mem_free() > short + 8192
print(json.dumps(out))
'''


def test_the_heap_is_collected_only_when_short_of_its_reserve(mpy):
    assert json.loads(mpy(TIDY)) == {"kept_with_room": True, "short_of_room": True,
                                     "collected_when_short": True}

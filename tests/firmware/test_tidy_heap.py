"""The heap is tidied after a frame, where a pause costs least, when less than a quarter of
it is free: on the small heap nearly every frame, which keeps it unfragmented."""
import json

TIDY = r'''
import gc, json
import croupier


def short():
    free = gc.mem_free()
    return free < (free + gc.mem_alloc()) // 4


gc.collect()
junk = [bytearray(64) for _ in range(100)]  # garbage, once dropped
junk = None
before = gc.mem_alloc()
croupier.tidy_heap()
out = {"kept_with_room": gc.mem_alloc() >= before}  # a collection frees the junk
hog = []
while not short():  # in use for good
    hog.append(bytearray(1024))
junk = [bytearray(64) for _ in range(150)]
junk = None
free = gc.mem_free()
croupier.tidy_heap()
out["collected_when_short"] = gc.mem_free() > free + 8192
print(json.dumps(out))
'''


def test_the_heap_is_collected_when_under_a_quarter_of_it_is_free(mpy):
    assert json.loads(mpy(TIDY)) == {"kept_with_room": True, "collected_when_short": True}

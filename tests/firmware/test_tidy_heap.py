"""The heap is tidied after a frame, where a pause costs least, once garbage has filled a
quarter of the room the last collection left free: not after every frame (a collection
marks the whole live heap, on the chip about as long as its serial input buffer lasts)."""
import json

TIDY = r'''
import gc, json
import croupier

croupier.collect()
room = gc.mem_free()
junk = [bytearray(64) for _ in range(room // 4 // 200)]  # well under a quarter of the room
junk = None
held = gc.mem_alloc()
croupier.tidy_heap()
left_alone = gc.mem_alloc() == held
out = {"left_alone": left_alone}
junk = [bytearray(64) for _ in range(room // 4 // 80)]  # past it
junk = None
held = gc.mem_alloc()
croupier.tidy_heap()
collected = gc.mem_alloc() < held - room // 8
out["collected"] = collected
print(json.dumps(out))
'''


def test_the_heap_is_collected_once_garbage_fills_a_quarter_of_the_room_left(mpy):
    assert json.loads(mpy(TIDY)) == {"left_alone": True, "collected": True}

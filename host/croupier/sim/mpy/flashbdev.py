# The ESP32 port's frozen `flashbdev` module: `bdev`, the block device of the flash's vfs
# partition (here the image file). _sim_boot mounts it at / as the port's _boot.py does;
# the firmware's boot.py may mount it again with other littlefs settings, as on the chip.
import _sim_channel as ch
from _sim_flash import Flash

bdev = Flash(ch.env("FLASH"))

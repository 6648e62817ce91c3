// Croupier enclosure (optional): a tray that holds the ESP32-DevKitC on edge rails and a
// lid carrying the OLED behind a window, the membrane keypad on top and the buzzer holes.
// Every size is in millimetres and can be changed here or from the command line:
//   openscad -D 'part="tray"' -o tray.stl hardware/enclosure.scad
//   openscad -D 'part="lid"'  -o lid.stl  hardware/enclosure.scad
// Print the lid upside down (outer face on the bed), the tray as it stands; PLA, 0.2 mm layers.

part = "both";            // "tray", "lid" or "both" (side by side, for a look)

// Case
wall = 2.0;
floor_t = 2.0;
lid_t = 2.0;
inner_w = 80;             // across the keypad
inner_l = 118;            // keypad + OLED along the lid
inner_h = 32;             // board on its rails, jumper housings underneath
corner_r = 3;
post_d = 6;               // lid screw posts in the tray's corners
screw_pilot_d = 2.2;      // M2.5 self-tapping screw into the posts
screw_clear_d = 2.9;

// ESP32-DevKitC V4 (54.4 x 27.9 mm, no mounting holes, header pins pointing down). It
// stands on four corner clips, clear of the headers: the USB end slides into grooves, the
// antenna end rests on ledges (a drop of hot glue holds it).
board_l = 54.4;
board_w = 27.9;
board_pcb = 1.6;
board_x = 6;              // from the left inner wall
clip_t = 3;               // clip thickness beyond the board's ends (USB end touches the wall)
clip_w = 5;               // clip width along the board's short edge
clip_grip = 1.2;          // how far a clip reaches under the board (headers start ~3 mm in)
board_y = clip_t;         // the board's USB end, from the near inner wall
rail_h = 20;              // room under the board for the Dupont housings on its pins
usb_w = 12;               // cut-out for the USB plug, centred on the board's short side
usb_h = 8;

// 0.96" SSD1306 module (27.3 x 27.8 mm PCB, glass shifted away from the pin header)
oled_pcb = 27.8;
oled_hole_dx = 23.5;
oled_hole_dy = 23.8;
oled_hole_d = 2.2;        // M2 screws through the lid into the module's holes
oled_window_w = 24;       // active area 21.7 x 10.9 plus a margin
oled_window_h = 13;
oled_window_shift = 1.5;  // glass centre above the PCB centre, away from the pins
oled_y = inner_l - 20;    // module centre on the lid

// 4x4 membrane keypad (stuck on the lid's top face)
keypad_w = 69;
keypad_l = 76;
keypad_y = 8;             // keypad's lower edge on the lid
keypad_recess = 0.6;      // shallow pocket that locates the keypad
ribbon_w = 22;            // slot for the 8-way flat tail at the keypad's lower edge
ribbon_gap = 2;

// Optional battery: a slot in the right wall for the SS12D00 slide switch
battery = true;
switch_l = 9;
switch_h = 4;
switch_y = 20;            // along the wall, from the USB end
switch_z = 12;            // above the floor

// Buzzer (glue the buzzer under the lid, over these holes)
buzzer_x = inner_w - 12;  // centre of the sound holes on the lid
buzzer_y = oled_y;
buzzer_hole_d = 1.8;
buzzer_ring = 4;          // holes on a ring of this radius plus one in the centre

$fn = 32;

module rounded_box(w, l, h, r) {
    translate([r, r, 0]) minkowski() {
        cube([w - 2 * r, l - 2 * r, h / 2]);
        cylinder(r = r, h = h / 2);
    }
}

module corners() {
    // posts sink 1 mm into the walls, so tray and posts fuse into one solid
    inset = post_d / 2 - 1;
    for (x = [inset, inner_w - inset], y = [inset, inner_l - inset])
        translate([x, y, 0]) children();
}

module tray() {
    difference() {
        rounded_box(inner_w + 2 * wall, inner_l + 2 * wall, inner_h + floor_t, corner_r);
        translate([wall, wall, floor_t]) cube([inner_w, inner_l, inner_h + 1]);
        // USB plug through the near wall, at the board's height
        translate([wall + board_x + board_w / 2 - usb_w / 2, -1, floor_t + rail_h - usb_h / 2 + board_pcb])
            cube([usb_w, wall + 2, usb_h]);
        if (battery)
            translate([wall + inner_w - 1, wall + switch_y - switch_l / 2, floor_t + switch_z])
                cube([wall + 2, switch_l, switch_h]);
    }
    translate([wall, wall, floor_t]) {
        board_clips();
        corners() difference() {
            cylinder(d = post_d, h = inner_h);
            cylinder(d = screw_pilot_d, h = inner_h + 1);
        }
    }
}

module board_clips() {
    for (side = [0, 1]) {
        x = board_x + side * (board_w - clip_w);
        // USB end: a groove the board's edge slides into
        translate([x, board_y - clip_t, 0]) difference() {
            cube([clip_w, clip_t + clip_grip, rail_h + board_pcb + 2]);
            translate([-1, clip_t - 0.2, rail_h]) cube([clip_w + 2, clip_grip + 1.2, board_pcb + 0.3]);
        }
        // antenna end: a ledge under the board and a lip beyond its edge
        translate([x, board_y + board_l - clip_grip, 0]) cube([clip_w, clip_grip, rail_h]);
        translate([x, board_y + board_l + 0.3, 0]) cube([clip_w, clip_t, rail_h + board_pcb + 2]);
    }
}

module lid() {
    difference() {
        rounded_box(inner_w + 2 * wall, inner_l + 2 * wall, lid_t, corner_r);
        translate([wall, wall, 0]) {
            corners() translate([0, 0, -1]) cylinder(d = screw_clear_d, h = lid_t + 2);
            // keypad pocket on the outer face (z = lid_t) and the ribbon slot below it
            translate([(inner_w - keypad_w) / 2, keypad_y, lid_t - keypad_recess])
                cube([keypad_w, keypad_l, 1]);
            translate([(inner_w - ribbon_w) / 2, keypad_y - ribbon_gap - 1, -1])
                cube([ribbon_w, ribbon_gap, lid_t + 2]);
            // OLED window and its four screw holes
            translate([inner_w / 2 - oled_window_w / 2, oled_y + oled_window_shift - oled_window_h / 2, -1])
                cube([oled_window_w, oled_window_h, lid_t + 2]);
            for (dx = [-1, 1], dy = [-1, 1])
                translate([inner_w / 2 + dx * oled_hole_dx / 2, oled_y + dy * oled_hole_dy / 2, -1])
                    cylinder(d = oled_hole_d, h = lid_t + 2);
            // buzzer sound holes
            translate([buzzer_x, buzzer_y, -1]) {
                cylinder(d = buzzer_hole_d, h = lid_t + 2);
                for (a = [0 : 60 : 300])
                    rotate(a) translate([buzzer_ring, 0, 0]) cylinder(d = buzzer_hole_d, h = lid_t + 2);
            }
        }
    }
}

if (part == "tray") tray();
else if (part == "lid") lid();
else {
    tray();
    translate([inner_w + 2 * wall + 10, 0, 0]) lid();
}

// Runs a MicroPython script on the webassembly port (32-bit: 4-byte pointers and 16-byte GC
// blocks, as on the ESP32) with folders copied into its in-memory filesystem. The script runs
// as async code (top-level await): this port frees garbage only when JS gets a turn.
// Usage: node heap32.mjs PACKAGE_DIR SCRIPT.py HOST_DIR:/DEST [HOST_DIR:/DEST ...]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const [pkg, script, ...folders] = process.argv.slice(2);
const { loadMicroPython } = await import(join(pkg, "micropython.mjs"));
const mp = await loadMicroPython({ stdout: (line) => console.log(line) });

function copy(src, dest) {
  mp.FS.mkdirTree(dest);
  for (const name of readdirSync(src)) {
    const path = join(src, name);
    if (statSync(path).isDirectory()) copy(path, dest + "/" + name);
    else mp.FS.writeFile(dest + "/" + name, readFileSync(path));
  }
}
for (const folder of folders) {
  const at = folder.lastIndexOf(":");
  copy(folder.slice(0, at), folder.slice(at + 1));
}
await mp.runPythonAsync(readFileSync(script, "utf8"));

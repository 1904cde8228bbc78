// A Pico running MicroPython's rp2 port in rp2040js, with a board around it: a diode matrix
// whose released columns recover through their pull-ups (an RC delay), a USB host that can
// stop reading, the LED chain's data pin decoded, and the watchdog wired to a reboot.
//
// Driven by tests/rp2_board.py: one JSON command a line on stdin, one JSON answer a line on
// stdout. Arguments: rp2040js's dist/esm/index.js, the boot ROM module, the MicroPython
// flash image, the filesystem image (placed at FS_OFFSET).
import fs from 'node:fs';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

// rp2040js and its logger write to the console: keep stdout for the answers.
const toErr = (...a) => process.stderr.write(a.join(' ') + '\n');
console.log = console.info = console.warn = console.debug = toErr;

const [lib, romPath, imagePath, fsPath] = process.argv.slice(2);
const { RP2040, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } = await import(
  pathToFileURL(lib).href
);
const { bootromB1 } = await import(pathToFileURL(romPath).href);
const image = fs.readFileSync(imagePath);
const fsImage = fs.readFileSync(fsPath);

const FS_OFFSET = 0xa0000; // the RPI_PICO build's filesystem
const CYCLE_NS = 8; // 125 MHz
const WDT_TIMER = 1; // watchdog REASON bits
const EP_IN_CTRL = (ep) => 0x80 + 8 * ep; // DPRAM buffer control, IN (device to host)

const board = {
  rows: [],
  cols: [],
  colsB: [],
  ledPin: -1,
  closedA: [], // closedA[r] bit c: the sensor of row r, column c is closed
  closedB: [],
  recoverNs: 4000, // a released column reads low this long (pull-up into the line's capacitance)
};
const host = {
  out: [], // bytes the device sent
  pending: [], // bytes to send to the device
  reading: true, // a host that stops reading leaves IN transfers pending (NAK)
  heldIn: [], // [offset, value] of IN transfers not completed yet
  heldOut: null, // an armed OUT endpoint waiting for bytes [endpoint, size]
};
let chip = null;
let cdc = null;
let stalled = false; // the core is frozen (a hung loop): only the clock and the watchdog run
let elapsedNs = 0; // simulated time across reboots
let boots = 0;
let frames = []; // decoded LED frames: arrays of bytes (GRB order, as sent)
let bits = [];
let ledHighAt = 0;
let ledLowAt = 0;
let releasedAt = [];

function driven(c, lists, closed) {
  // Is column c pulled low now by a closed sensor on a row driven low?
  for (let r = 0; r < board.rows.length; r++) {
    if (lists[r] === GPIOPinState.Low && (closed[r] >> c) & 1) return true;
  }
  return false;
}

function wireMatrix() {
  const rowStates = () => board.rows.map((g) => chip.gpio[g].value);
  const lowNow = new Map(); // gpio -> pulled low at the last row change
  const update = () => {
    const states = rowStates();
    const now = chip.clock.nanos;
    for (const [cols, closed] of [
      [board.cols, board.closedA],
      [board.colsB, board.closedB],
    ]) {
      cols.forEach((g, c) => {
        const low = driven(c, states, closed);
        if (lowNow.get(g) && !low) releasedAt[g] = now;
        lowNow.set(g, low);
      });
    }
  };
  board.update = update;
  for (const g of [...board.cols, ...board.colsB]) {
    const pin = chip.gpio[g];
    releasedAt[g] = -1e18;
    Object.defineProperty(pin, 'rawInputValue', {
      get: () => !(lowNow.get(g) || chip.clock.nanos < releasedAt[g] + board.recoverNs),
      set: () => {},
      configurable: true,
    });
  }
  for (const g of board.rows) chip.gpio[g].addListener(update);
}

function wireLeds() {
  if (board.ledPin < 0) return;
  chip.gpio[board.ledPin].addListener((value) => {
    const now = elapsedNs + chip.clock.nanos;
    if (value === GPIOPinState.High) {
      if (bits.length && now - ledLowAt > 50000) endFrame(); // a reset gap (> 50 us)
      ledHighAt = now;
    } else if (value === GPIOPinState.Low) {
      ledLowAt = now;
      bits.push(now - ledHighAt > 600 ? 1 : 0); // T1H ~0.8 us, T0H ~0.4 us
    }
  });
}

function endFrame() {
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) {
    let b = 0;
    for (let k = 0; k < 8; k++) b = (b << 1) | bits[i + k];
    bytes.push(b);
  }
  frames.push(bytes);
  if (frames.length > 8) frames.shift();
  bits = [];
}

function boot(reason) {
  const clockBefore = chip ? chip.clock.nanos : 0;
  elapsedNs += clockBefore;
  chip = new RP2040();
  chip.logger = new ConsoleLogger(LogLevel.Error);
  chip.loadBootrom(bootromB1);
  chip.flash.set(image, 0);
  chip.flash.set(fsImage, FS_OFFSET);
  chip.core.PC = 0x10000000;
  boots += 1;
  feeds.last = -1;
  // BOOTSEL reads as released: the QSPI SS pad's input enabled and pulled high.
  const ss = chip.qspi[1];
  let pad = ss.padValue;
  Object.defineProperty(ss, 'padValue', { get: () => pad | 0x40, set: (v) => (pad = v) });
  ss.setInputValue(true);
  // Why this boot: power-on (POR bits set) or the watchdog (none set, REASON kept).
  if (reason) {
    chip.peripherals[0x40064].readUint32 = (offset) => (offset === 8 ? 0 : 0xffffffff);
    chip.peripherals[0x40058].reason = reason;
  }
  const wdt = chip.peripherals[0x40058];
  const write = wdt.writeUint32.bind(wdt);
  wdt.writeUint32 = (offset, value) => {
    if (offset === 0x04) {
      // LOAD: the watchdog is fed
      const now = elapsedNs + chip.clock.nanos;
      if (feeds.last >= 0) feeds.maxGap = Math.max(feeds.maxGap, now - feeds.last);
      feeds.last = now;
    }
    write(offset, value);
  };
  wdt.onWatchdogTrigger = () => {
    rebootAsked = wdt.reason || WDT_TIMER;
    // the chip resets here: a timer left running at zero would fire again at once, forever
    wdt.alarm.enable = false;
    wdt.timer.enable = false;
  };
  wireUsb();
  if (board.rows.length) wireMatrix();
  wireLeds();
}
let rebootAsked = 0;
const feeds = { last: -1, maxGap: 0 }; // simulated ns

function wireUsb() {
  cdc = new USBCDC(chip.usbCtrl);
  host.heldIn = [];
  host.heldOut = null;
  cdc.onSerialData = (buf) => {
    for (const b of buf) host.out.push(b);
  };
  // An armed OUT endpoint completes only when the host has bytes (a real host does not send
  // empty packets): rp2040js's CDC would complete it at once with none, over and over.
  const usb = chip.usbCtrl;
  usb.onEndpointRead = (ep, size) => {
    if (ep !== cdc.outEndpoint) return;
    host.heldOut = [ep, size];
    feedOut();
  };
  // A host that stops reading: the IN transfer stays armed and pending.
  const original = usb.DPRAMUpdated.bind(usb);
  usb.DPRAMUpdated = (offset, value) => {
    if (
      !host.reading &&
      cdc.inEndpoint > 0 &&
      offset === EP_IN_CTRL(cdc.inEndpoint) &&
      value & (1 << 10)
    ) {
      host.heldIn.push([offset, value]);
      return;
    }
    original(offset, value);
  };
  host.release = () => {
    const held = host.heldIn;
    host.heldIn = [];
    for (const [o, v] of held) original(o, v);
  };
}

function feedOut() {
  if (!host.heldOut || !host.pending.length) return;
  const [ep, size] = host.heldOut;
  host.heldOut = null;
  const n = Math.min(size, host.pending.length);
  chip.usbCtrl.endpointReadDone(ep, Uint8Array.from(host.pending.splice(0, n)));
}

function run(ms) {
  let left = ms * 1e6;
  while (left > 0) {
    const c = chip;
    const before = c.clock.nanos;
    if (stalled || c.core.waiting) {
      const next = c.clock.nanosToNextAlarm;
      c.clock.tick(next > 0 && next < left ? next : stalled ? Math.min(left, 1e5) : left);
    } else {
      c.clock.tick(c.core.executeInstruction() * CYCLE_NS);
    }
    left -= c.clock.nanos - before;
    if (rebootAsked) {
      const reason = rebootAsked;
      rebootAsked = 0;
      stalled = false;
      boot(reason);
    }
    if (host.heldOut && host.pending.length) feedOut();
  }
}

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const commands = {
  board(m) {
    board.rows = m.rows;
    board.cols = m.cols;
    board.colsB = m.cols_b || [];
    board.ledPin = m.led;
    board.closedA = m.rows.map(() => 0);
    board.closedB = m.rows.map(() => 0);
    boot(0);
    return {};
  },
  run(m) {
    run(m.ms);
    const out = Buffer.from(host.out).toString('latin1');
    host.out = [];
    return { out, t_ms: (elapsedNs + chip.clock.nanos) / 1e6, boots };
  },
  send(m) {
    for (const b of Buffer.from(m.data, 'latin1')) host.pending.push(b);
    feedOut();
    return {};
  },
  matrix(m) {
    board.closedA = m.a;
    board.closedB = m.b || board.rows.map(() => 0);
    board.update();
    return {};
  },
  recover(m) {
    board.recoverNs = m.us * 1000;
    return {};
  },
  reading(m) {
    host.reading = m.on;
    if (m.on) host.release();
    return { held: host.heldIn.length };
  },
  feedgap() {
    // the longest time (ms) without a watchdog feed since the last call
    const now = elapsedNs + chip.clock.nanos;
    const gap = Math.max(feeds.maxGap, feeds.last >= 0 ? now - feeds.last : 0) / 1e6;
    feeds.maxGap = 0;
    return { ms: gap };
  },
  stall() {
    stalled = true;
    return {};
  },
  leds() {
    if (bits.length && elapsedNs + chip.clock.nanos - ledLowAt > 50000) endFrame();
    return { frames };
  },
};

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  const m = JSON.parse(line);
  try {
    answer(commands[m.op](m));
  } catch (e) {
    answer({ error: String(e && e.stack ? e.stack : e) });
  }
}

// The script of a hextris replay page (src/view/html.rs writes the page and its data).
//
// It shows frames and never applies the rules: the data holds what the engine did with each
// command (a code per command: the pivot's move and turn, a lock, or an ignored command), what
// each lock did (cells filled, rows cleared, the next unit, the scores after it), and where the
// phrases were spelt. The board at a frame is the board after the locks before it, rebuilt from a
// snapshot every SNAP locks; the unit in play is its spawn position plus the moves since.
//
// Cells are numbered y * width + x; odd rows are drawn half a cell to the right, as in the rules.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const W = D.problem.width;
  const H = D.problem.height;
  const SNAP = 32;
  const CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const EMPTY = "#eeeeee";
  const R = 10;
  const M = 4;
  const SQ3 = Math.sqrt(3);
  const $ = (id) => document.getElementById(id);

  // Fields of a lock record, in the order html.rs writes them.
  const L_POINTS = 0, L_LINES = 1, L_MOVE = 2, L_LINES_TOTAL = 3, L_UNIT_NUMBER = 4,
    L_STANDING = 5, L_FILLED = 6, L_ROWS = 7, L_NEXT = 8, L_UNIT = 9;

  // Index of the first element of a sorted array greater than v.
  function upperBound(a, v) {
    let lo = 0, hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid] <= v) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  // The numbers html.rs writes compactly: base-32 digits, lowest first, one character each;
  // digits 32 and up say that more follow.
  const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  function readNumbers(s) {
    const out = [];
    let v = 0, scale = 1;
    for (let k = 0; k < s.length; k++) {
      const d = DIGITS.indexOf(s[k]);
      v += (d & 31) * scale;
      scale *= 32;
      if (d < 32) {
        out.push(v);
        v = 0;
        scale = 1;
      }
    }
    return out;
  }

  function centre(x, y) {
    return [M + SQ3 * R * (x + 0.5 + (y & 1) / 2), M + R + 1.5 * R * y];
  }

  function hexPoints(x, y) {
    const [cx, cy] = centre(x, y);
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = (60 * k - 90) * Math.PI / 180;
      pts.push((cx + R * Math.cos(a)).toFixed(1) + "," + (cy + R * Math.sin(a)).toFixed(1));
    }
    return pts;
  }

  function unitColour(k) {
    return D.colours.units[k % D.colours.units.length];
  }

  function ownerColour(o) {
    return o === 0 ? EMPTY : o === 1 ? D.colours.start : unitColour(o - 2);
  }

  // Fills a locked unit's cells and removes the rows it completed, as the engine reported them:
  // the rows above drop and empty rows come in at the top.
  function applyLock(board, lock) {
    for (const c of lock[L_FILLED]) board[c] = lock[L_UNIT] + 2;
    const rows = lock[L_ROWS];
    if (rows.length === 0) return;
    const gone = new Set(rows);
    let write = H;
    for (let read = H - 1; read >= 0; read--) {
      if (gone.has(read)) continue;
      write--;
      if (write !== read) board.copyWithin(write * W, read * W, (read + 1) * W);
    }
    board.fill(0, 0, write * W);
  }

  // Per-game tables built once: decoded commands, lock frames, each command's character in the
  // text, the frames from which each phrase occurrence counts, and board snapshots.
  function prepare(g) {
    if (g.ready) return g;
    const m = g.steps.length;
    g.m = m;
    g.code = new Uint8Array(m);
    const lockFrames = [];
    for (let k = 0; k < m; k++) {
      const c = CODE_CHARS.indexOf(g.steps[k]);
      g.code[k] = c;
      if (D.codes[c].k === 1) lockFrames.push(k + 1);
    }
    if (lockFrames.length !== g.locks.length) {
      throw new Error("hextris: " + lockFrames.length + " lock codes but " + g.locks.length +
        " lock records");
    }
    g.lockFrames = Int32Array.from(lockFrames);
    const skip = new Set(g.skips);
    g.cmdChar = new Int32Array(m);
    let t = 0;
    for (let k = 0; k < m; k++) {
      while (skip.has(t)) t++;
      g.cmdChar[k] = t++;
    }
    // Occurrences: [phrase, start, end, first frame counted, power from then on].
    const nums = readNumbers(g.occ);
    g.occList = [];
    let end = 0, power = 0;
    for (let k = 0; k + 2 < nums.length; k += 3) {
      const ph = nums[k];
      end += nums[k + 1];
      power += nums[k + 2];
      // The first frame whose spelt text (up to the next command's character) reaches the end.
      let lo = 0, hi = m;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (g.cmdChar[mid] < end) lo = mid + 1; else hi = mid;
      }
      g.occList.push([ph, end - D.phraseLengths[ph], end, lo, power]);
    }
    g.occFrames = g.occList.map((o) => o[3]);
    g.occEnds = g.occList.map((o) => o[2]);
    g.perPhrase = D.phrases.map(() => []);
    g.longest = Math.max(0, ...D.phraseLengths);
    for (const o of g.occList) g.perPhrase[o[0]].push(o[3]);
    const board = new Int32Array(W * H);
    for (const c of D.startCells) board[c] = 1;
    g.snapshots = [board.slice()];
    g.locks.forEach((lock, j) => {
      applyLock(board, lock);
      if ((j + 1) % SNAP === 0) g.snapshots.push(board.slice());
    });
    g.board = g.snapshots[0].slice();
    g.boardLocks = 0;
    g.ready = true;
    return g;
  }

  // The board after the first j locks of game g.
  function boardAfter(g, j) {
    if (j < g.boardLocks || j - g.boardLocks > SNAP) {
      const s = Math.floor(j / SNAP);
      g.board.set(g.snapshots[s]);
      g.boardLocks = s * SNAP;
    }
    while (g.boardLocks < j) applyLock(g.board, g.locks[g.boardLocks++]);
    return g.board;
  }

  // The unit in play at frame i, after j locks: [unit, x, y, orientation] or null.
  function pieceAt(g, i, j) {
    const base = j === 0 ? g.start.piece : g.locks[j - 1][L_NEXT];
    if (base.length === 0) return null;
    let [u, x, y, o] = base;
    for (let c = j === 0 ? 0 : g.lockFrames[j - 1]; c < i; c++) {
      const cd = D.codes[g.code[c]];
      if (cd.k !== 0) continue;
      x += cd.dx;
      y += cd.dy;
      o = (o + cd.r) % 6;
    }
    return [u, x, y, o];
  }

  function pieceCells(p) {
    const [u, x, y, o] = p;
    return D.shapes[u][o][y & 1].map(([dx, dy]) => [x + dx, y + dy]);
  }

  // ---- The page ----
  const games = D.games;
  let g = prepare(games[D.first]);
  let frame = Math.min(D.step, g.m);
  let playing = false;
  let speedIndex = D.speeds.indexOf(20) >= 0 ? D.speeds.indexOf(20) : 0;
  let playFrom = 0, playT0 = 0;

  const svg = $("board");
  const vw = SQ3 * R * (W + 0.5) + 2 * M;
  const vh = 1.5 * R * (H - 1) + 2 * R + 2 * M;
  svg.setAttribute("viewBox", "0 0 " + vw.toFixed(1) + " " + vh.toFixed(1));
  {
    const parts = [];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        parts.push('<polygon points="' + hexPoints(x, y).join(" ") + '"/>');
      }
    }
    $("cells").innerHTML = parts.join("");
  }
  const cellEls = Array.from($("cells").children);
  const shown = new Array(W * H).fill("");
  $("pivot").setAttribute("r", (R * 0.35).toFixed(1));

  for (const [k, s] of D.speeds.entries()) {
    const o = document.createElement("option");
    o.value = k;
    o.textContent = s + "/s";
    $("speed").appendChild(o);
  }
  for (const [k, gm] of games.entries()) {
    const o = document.createElement("option");
    o.value = k;
    o.textContent = gm.seed + " (" + gm.steps.length + " commands, " + gm.end + ", score " +
      gm.score + ")";
    $("seed").appendChild(o);
  }

  function drawBoard(i, j) {
    const board = boardAfter(g, j);
    const piece = pieceAt(g, i, j);
    const look = new Array(W * H);
    for (let c = 0; c < W * H; c++) {
      look[c] = board[c] === 0 ? "e" + EMPTY : "f" + ownerColour(board[c]);
    }
    let outline = "";
    const pivot = $("pivot");
    pivot.style.display = "none";
    if (piece) {
      const colour = unitColour(piece[0]);
      for (const [x, y] of pieceCells(piece)) {
        if (x >= 0 && y >= 0 && x < W && y < H) look[y * W + x] = "p" + colour;
        outline += "M" + hexPoints(x, y).join("L") + "Z";
      }
      const [, px, py] = piece;
      if (px >= 0 && py >= 0 && px < W && py < H) {
        const [cx, cy] = centre(px, py);
        pivot.setAttribute("cx", cx.toFixed(1));
        pivot.setAttribute("cy", cy.toFixed(1));
        pivot.style.display = "";
      }
    }
    for (let c = 0; c < W * H; c++) {
      if (look[c] !== shown[c]) {
        shown[c] = look[c];
        cellEls[c].setAttribute("class", look[c][0]);
        cellEls[c].setAttribute("fill", look[c].slice(1));
      }
    }
    $("outline").setAttribute("d", outline);
  }

  function escapeHtml(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  // The text around the current command, as the ANSI viewer's strip shows it: the phrases spelt
  // so far highlighted, the current command marked, the text still to come dimmed.
  function drawStrip(i) {
    const el = $("strip");
    const text = g.text;
    if (!drawStrip.charWidth) {
      const probe = document.createElement("span");
      probe.textContent = "0".repeat(100);
      el.appendChild(probe);
      drawStrip.charWidth = probe.getBoundingClientRect().width / 100 || 8;
      el.removeChild(probe);
    }
    const room = Math.max(10, Math.floor((el.clientWidth - 10) / drawStrip.charWidth) - 1);
    const prefix = i < g.m ? g.cmdChar[i] : text.length;
    const current = i > 0 ? g.cmdChar[i - 1] : -1;
    const stopChar = g.stop && g.stop.char !== null;
    const total = text.length + (stopChar ? 1 : 0);
    let from = Math.max(0, Math.max(current, 0) - Math.floor(room * 2 / 3));
    from = total > room ? Math.min(from, total - room) : 0;
    const to = Math.min(from + room, text.length);
    const spelt = new Uint8Array(to - from);
    let k = upperBound(g.occEnds, from);
    for (; k < g.occList.length && g.occList[k][2] < to + g.longest; k++) {
      const o = g.occList[k];
      if (o[3] > i || o[1] >= to) continue;
      for (let c = Math.max(o[1], from); c < Math.min(o[2], to); c++) spelt[c - from] = 1;
    }
    let html = "";
    let run = "", runClass = null;
    const flush = () => {
      if (run) html += runClass ? '<span class="' + runClass + '">' + escapeHtml(run) + "</span>" : escapeHtml(run);
      run = "";
    };
    for (let c = from; c < to; c++) {
      const ch = text[c] === "\n" || text[c] === "\t" || text[c] === "\r" ? "·" : text[c];
      const cls = [spelt[c - from] ? "ph" : "", c >= prefix ? "todo" : "", c === current ? "cur" : ""]
        .filter((s) => s).join(" ") || null;
      if (cls !== runClass) {
        flush();
        runClass = cls;
      }
      run += ch;
    }
    flush();
    if (stopChar && i === g.m && to === text.length) {
      html += '<span class="err" title="the offending character: ' +
        escapeHtml(JSON.stringify(g.stop.char)) + '">✗</span>';
    }
    el.innerHTML = html;
  }

  function render() {
    const i = frame;
    const j = upperBound(g.lockFrames, i);
    const lock = j > 0 ? g.locks[j - 1] : null;
    drawBoard(i, j);
    const mv = lock ? lock[L_MOVE] : 0;
    const n = upperBound(g.occFrames, i);
    const power = n > 0 ? g.occList[n - 1][4] : 0;
    const unit = lock ? lock[L_UNIT_NUMBER] : g.start.unit;
    const lines = lock ? lock[L_LINES_TOTAL] : 0;
    const standing = D.standings[lock ? lock[L_STANDING] : g.start.standing];
    $("status").textContent = "unit " + unit + " of " + D.problem.units + " · command " + i +
      " of " + g.m + " · score " + (mv + power) + " = " + mv + " move + " + power + " power · lines " +
      lines + " · " + standing;
    const used = [];
    D.phrases.forEach((label, k) => {
      const c = upperBound(g.perPhrase[k], i);
      if (c > 0) used.push(label + "x" + c);
    });
    $("phrases").textContent = used.length ? "phrases: " + used.join(" ") : "phrases: none yet";
    let note, error = false;
    if (i === g.m && g.stop) {
      note = g.stop.note;
      error = true;
    } else if (i === 0) {
      note = g.start.note;
    } else {
      const cd = D.codes[g.code[i - 1]];
      if (cd.k === 0) note = "last: " + cd.c;
      else if (cd.k === 1) {
        note = "last: " + cd.c + " locked the unit: +" + lock[L_POINTS] + " points, " + lock[L_LINES] +
          " line" + (lock[L_LINES] === 1 ? "" : "s") + " cleared";
      } else note = "last: " + cd.c + " ignored (the game was over at the start)";
    }
    $("note").textContent = note;
    $("note").className = "mono" + (error ? " error" : "");
    drawStrip(i);
    $("seek").max = g.m;
    $("seek").value = i;
    $("play").textContent = playing ? "pause" : "play";
    $("speed").value = speedIndex;
    $("seed").value = games.indexOf(g);
    $("heading").textContent = g.heading;
    if (!playing) {
      try {
        history.replaceState(null, "", "#seed=" + g.seed + "&step=" + i);
      } catch (e) {
        // Some browsers refuse to change the address of a local file; the page works without.
      }
    }
  }

  function seek(i) {
    frame = Math.max(0, Math.min(g.m, i));
    if (playing) {
      playFrom = frame;
      playT0 = performance.now();
    }
    render();
  }

  function nextUnit(i) {
    const k = upperBound(g.lockFrames, i);
    return k < g.lockFrames.length ? g.lockFrames[k] : g.m;
  }

  function previousUnit(i) {
    const k = upperBound(g.lockFrames, i - 1);
    return k === 0 ? 0 : g.lockFrames[k - 1];
  }

  function tick(now) {
    if (!playing) return;
    const target = playFrom + Math.floor((now - playT0) * D.speeds[speedIndex] / 1000);
    if (target !== frame) {
      frame = Math.min(target, g.m);
      if (frame === g.m) playing = false;
      render();
    }
    if (playing) requestAnimationFrame(tick);
  }

  function setPlaying(on) {
    playing = on && frame < g.m;
    if (playing) {
      playFrom = frame;
      playT0 = performance.now();
      requestAnimationFrame(tick);
    }
    render();
  }

  function setSpeed(k) {
    speedIndex = Math.max(0, Math.min(D.speeds.length - 1, k));
    if (playing) {
      playFrom = frame;
      playT0 = performance.now();
    }
    render();
  }

  function setGame(k, step) {
    g = prepare(games[k]);
    playing = false;
    seek(step);
  }

  // The address may name a seed and a frame: #seed=S&step=N.
  function fromFragment() {
    const args = {};
    for (const part of location.hash.slice(1).split("&")) {
      const [key, value] = part.split("=");
      if (key) args[decodeURIComponent(key)] = decodeURIComponent(value || "");
    }
    let k = games.indexOf(g);
    if (args.seed !== undefined) {
      const found = games.findIndex((gm) => String(gm.seed) === args.seed);
      if (found >= 0) k = found;
    }
    const step = args.step !== undefined && /^\d+$/.test(args.step) ? Number(args.step) : frame;
    setGame(k, step);
  }

  $("start").onclick = () => seek(0);
  $("end").onclick = () => seek(g.m);
  $("back").onclick = () => seek(frame - 1);
  $("fwd").onclick = () => seek(frame + 1);
  $("unitback").onclick = () => seek(previousUnit(frame));
  $("unitfwd").onclick = () => seek(nextUnit(frame));
  $("play").onclick = () => setPlaying(!playing);
  $("seek").oninput = () => seek(Number($("seek").value));
  $("speed").onchange = () => setSpeed(Number($("speed").value));
  $("seed").onchange = () => setGame(Number($("seed").value), 0);
  window.addEventListener("hashchange", fromFragment);
  window.addEventListener("resize", () => render());

  // The ANSI viewer's keys.
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey || (e.target && e.target.tagName === "SELECT")) return;
    const act = {
      ArrowRight: () => seek(frame + 1), l: () => seek(frame + 1),
      ArrowLeft: () => seek(frame - 1), h: () => seek(frame - 1),
      ArrowDown: () => seek(nextUnit(frame)), j: () => seek(nextUnit(frame)),
      ArrowUp: () => seek(previousUnit(frame)), k: () => seek(previousUnit(frame)),
      Home: () => seek(0), g: () => seek(0),
      End: () => seek(g.m), G: () => seek(g.m),
      " ": () => setPlaying(!playing), p: () => setPlaying(!playing),
      "+": () => setSpeed(speedIndex + 1), "=": () => setSpeed(speedIndex + 1),
      "-": () => setSpeed(speedIndex - 1), _: () => setSpeed(speedIndex - 1),
    }[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  });

  fromFragment();
})();

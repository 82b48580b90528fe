// A small engine for the browser tests of `gridplay bot ... --engine cmd=...`: it speaks gridplay's line
// protocol (docs/protocol.md) for tic-tac-toe only, and always plays the first empty square, reading the
// board from the position's run-length rows (top row first: a3 b3 c3 / a2 b2 c2 / a1 b1 c1).
import { createInterface } from 'node:readline';

const SQUARES = ['a3', 'b3', 'c3', 'a2', 'b2', 'c2', 'a1', 'b1', 'c1'];
let cells = Array(9).fill(null);

function read(rows) {
  const out = [];
  for (const ch of rows.replace(/\//g, '')) {
    if (/[0-9]/.test(ch)) for (let k = 0; k < Number(ch); k += 1) out.push(null);
    else out.push(ch);
  }
  return out.length === 9 ? out : null;
}

for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, ...rest] = line.trim().split(/\s+/);
  if (cmd === 'game') console.log(rest[0] === 'tictactoe' ? 'ok' : `error this engine plays tic-tac-toe only, not ${rest[0]}`);
  else if (cmd === 'position') {
    const board = read(rest[0] || '');
    if (board) { cells = board; console.log('ok'); } else console.log(`error bad position: ${rest.join(' ')}`);
  } else if (cmd === 'go') {
    const i = cells.findIndex((c) => c === null);
    console.log(i < 0 ? 'error no move' : `bestmove ${SQUARES[i]} score 0 depth 1 nodes 1`);
  } else if (cmd === 'quit') break;
  else console.log('ok');
}

// The engine-use review's queue and figures.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

export default async function ({ command, test, BASE, BIN, openPage, signUp, challenge, waitFor, shot, state, waitVersion, enter, axe }) {

  await test('engine-use review: a player who plays the engine\'s moves in rated games is in the admins\' queue with each game\'s figures, and the replay shows the same agreement; axe-clean', async () => {
    const [cal, ned, rex] = [await openPage(), await openPage(), await openPage()];
    await signUp(cal, 'cal');
    await signUp(ned, 'ned');
    await signUp(rex, 'rex');
    const made = command('admin', 'grant', 'rex');
    assert.equal(made.status, 0, made.stderr);
    // Cal's moves come from the engine at level 6, asked over the gridplay protocol in another process, as a
    // person with an engine in another window would; Ned enters the first legal move the server lists.
    const engine = spawn(BIN, ['engine'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = [];
    let waiting = null;
    let buffered = '';
    engine.stdout.on('data', (d) => {
      buffered += d;
      let at;
      while ((at = buffered.indexOf('\n')) >= 0) {
        lines.push(buffered.slice(0, at));
        buffered = buffered.slice(at + 1);
        if (waiting) { const w = waiting; waiting = null; w(); }
      }
    });
    const ask = async (line) => {
      engine.stdin.write(`${line}\n`);
      while (!lines.length) await new Promise((r) => { waiting = r; });
      const answer = lines.shift();
      assert.ok(!answer.startsWith('error'), `${line}: ${answer}`);
      return answer;
    };
    const games = [];
    try {
      for (let g = 0; g < 2; g++) {
        await challenge(cal, ned, 'ned', '10+5', { rated: true });
        games.push(new URL(cal.url()).pathname.split('/').pop());
        for (let n = 0; n < 200; n++) {
          const st = await state(cal);
          if (st.over) break;
          let mv = st.view.moves[0];
          if (st.view.turn === 'first') {
            await ask('game reversi');
            if (st.moves.length) await ask(`play ${st.moves.join(' ')}`);
            const best = (await ask('go level=6')).split(' ')[1];
            mv = st.view.moves.find((m) => m.text === best);
            assert.ok(mv, `the engine's ${best} is legal`);
          }
          const page = st.view.turn === 'first' ? cal : ned;
          await enter(page, mv);
          await waitVersion(page, st.moves.length + 1);
        }
        assert.ok((await state(cal)).over, 'the game ended');
      }
    } finally {
      engine.stdin.end();
    }
    // The reviewer takes each finished game within seconds (this server reviews every 2 s, and flags from 2
    // games); the admin's page lists Cal with both games' figures, linked to their replays.
    await rex.goto(BASE + '/admin');
    await waitFor(async () => {
      await rex.reload();
      await rex.waitForSelector('#review-queue > *');
      return (await rex.locator('#review-queue [data-suspect="cal"] .review-games tbody tr').count()) === 2;
    }, 60000, 'Cal in the review queue with both games');
    const suspect = rex.locator('#review-queue [data-suspect="cal"]');
    assert.equal(await rex.locator('#review-queue [data-suspect="ned"]').count(), 0, 'Ned is not flagged');
    const text = await suspect.textContent();
    assert.match(text, /2 games: [\d.]+% of moves the engine's best \(\d+ of \d+\), accuracy [\d.]+%/);
    assert.match(text, /flagged/);
    for (const id of games) assert.equal(await suspect.locator(`a[href="/replay/${id}"]`).count(), 1);
    await shot(rex, 'review-queue.png', true);
    assert.deepEqual(await axe(rex), []);
    // The account card, opened from the queue, has the same figures; Ned's has his, unflagged.
    await suspect.locator('button.secondary').click();
    await rex.waitForSelector('#looked-up [data-account="cal"] .review-profile');
    await rex.fill('#look-name', 'ned');
    await rex.click('#look-name + button');
    await rex.waitForSelector('#looked-up [data-account="ned"] .review-profile');
    assert.doesNotMatch(await rex.textContent('#looked-up .review-profile h4'), /flagged/);
    // The first game's row agrees with its replay's analysis.
    const row = suspect.locator('.review-games tbody tr', { has: rex.locator(`a[href="/replay/${games[0]}"]`) });
    const agreed = (await row.locator('td').nth(2).textContent()).trim();
    const analysis = await rex.evaluate(async (id) => (await fetch(`/api/games/${id}/analysis`)).json(), games[0]);
    assert.equal(agreed, `${analysis.sides[0].agreed}/${analysis.sides[0].counted}`);
    for (const p of [cal, ned, rex]) await p.context().close();
  });
}

// Game chat: the players' and the spectators' rooms.

import assert from 'node:assert/strict';

export default async function ({ test, BASE, openPage, signUp, move, axe }) {

  await test('game chat: players and spectators each in their own room, live; a refusal said as a sentence; hide the chat, hide an author, report a line; by keyboard, in Japanese, axe-clean; the replay keeps it for the players', async () => {
    const [ada, bea, cy] = [await openPage(), await openPage(), await openPage()];
    await signUp(ada, 'ada');
    await signUp(bea, 'bea');
    await signUp(cy, 'cyrus');
    const challenge = await ada.evaluate(async () => (await (await fetch('/api/challenges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec: 'reversi', color: 'first', opponent: 'bea' }) })).json()).id);
    const game = await bea.evaluate(async (id) => (await (await fetch(`/api/challenges/${id}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()).game, challenge);
    const visitor = await openPage();
    for (const p of [ada, bea, cy, visitor]) {
      await p.goto(`${BASE}/game/${game}`);
      await p.waitForSelector('#chat');
    }
    assert.equal(await ada.textContent('#chat-title'), 'Chat with your opponent');
    assert.equal(await cy.textContent('#chat-title'), "Spectators' chat");
    // A visitor reads the spectators' room but is asked to sign in to talk.
    assert.equal(await visitor.locator('#chat-input').count(), 0);
    assert.match(await visitor.textContent('#chat'), /Sign in to chat\./);
    // Ada types by keyboard; Bea reads it at once, and Cy, a spectator, does not.
    await ada.focus('#chat-input');
    await ada.keyboard.type('Good luck, Bea!');
    await ada.keyboard.press('Enter');
    await bea.waitForFunction(() => /Good luck, Bea!/.test(document.querySelector('#chat-log').textContent));
    await ada.waitForFunction(() => document.querySelector('#chat-input').value === '');
    assert.equal(await bea.getAttribute('#chat-scroll', 'role'), 'log');
    await cy.fill('#chat-input', 'What an opening');
    await cy.press('#chat-input', 'Enter');
    await visitor.waitForFunction(() => /cyrus\s*What an opening/.test(document.querySelector('#chat-log').textContent));
    await bea.fill('#chat-input', 'Thanks, you too');
    await bea.press('#chat-input', 'Enter');
    await ada.waitForFunction(() => /Thanks, you too/.test(document.querySelector('#chat-log').textContent));
    for (const p of [ada, bea]) assert.ok(!(await p.textContent('#chat-log')).includes('What an opening'), 'the players do not read the spectators');
    assert.ok(!(await cy.textContent('#chat-log')).includes('Good luck'), 'the spectators do not read the players');
    // A refused line is said as a sentence, and kept in the box to be changed.
    await ada.fill('#chat-input', 'good luck, bea!');
    await ada.press('#chat-input', 'Enter');
    await ada.waitForFunction(() => document.querySelector('#chat-error').textContent !== '');
    assert.equal(await ada.textContent('#chat-error'), 'You said that a moment ago.');
    assert.equal(await ada.inputValue('#chat-input'), 'good luck, bea!');
    // Bea hides Ada's lines (kept in her browser), then shows them again; every control is a button.
    await bea.click(`#chat-log li:has-text("Good luck") .chat-menu`);
    assert.equal(await bea.getAttribute(`#chat-log li:has-text("Good luck") .chat-menu`, 'aria-expanded'), 'true');
    assert.deepEqual(await axe(bea), []);
    await bea.click('text=Hide ada\'s lines');
    await bea.waitForFunction(() => !/Good luck/.test(document.querySelector('#chat-log').textContent));
    assert.match(await bea.textContent('#chat-hidden'), /ada's lines are hidden/);
    await bea.reload();
    await bea.waitForSelector('#chat-log li');
    assert.ok(!(await bea.textContent('#chat-log')).includes('Good luck'), 'still hidden after a reload');
    await bea.click("text=Show ada's lines again");
    await bea.waitForFunction(() => /Good luck/.test(document.querySelector('#chat-log').textContent));
    // She reports the line to the moderators, by keyboard.
    await bea.click(`#chat-log li:has-text("Good luck") .chat-menu`);
    await bea.click('text=Report this line');
    await bea.keyboard.type('Sarcastic after every move.');
    await bea.keyboard.press('Enter');
    await bea.waitForFunction(() => /Report sent/.test(document.querySelector('#toast').textContent));
    // The switch hides the whole chat, and the choice is kept.
    await cy.check('#chat-off');
    assert.equal(await cy.isVisible('#chat-log'), false);
    await cy.reload();
    await cy.waitForSelector('#chat');
    assert.equal(await cy.isVisible('#chat-log'), false);
    await cy.uncheck('#chat-off');
    assert.equal(await cy.isVisible('#chat-log'), true);
    // In Japanese the box is wholly Japanese, and axe-clean.
    const ja = await openPage('ja-JP');
    await ja.context().addCookies(await cy.context().cookies());
    await ja.goto(`${BASE}/game/${game}`);
    await ja.waitForSelector('#chat-log li');
    assert.equal(await ja.textContent('#chat-title'), '観戦者のチャット');
    assert.equal(await ja.getAttribute('#chat-input', 'placeholder'), '観戦者にひとこと');
    assert.deepEqual(await axe(ja), []);
    // Once the game is over, the players' replay shows both rooms; a spectator's shows the spectators' only.
    for (const p of [ada, bea]) await p.evaluate(() => window.scrollTo(0, 0));
    await move(ada, 'd3');
    await move(bea, 'c3');
    await ada.click('#resign');
    await ada.click('#confirm-yes');
    await ada.waitForSelector('#game-over');
    await bea.goto(`${BASE}/replay/${game}`);
    await bea.waitForSelector('#replay-below #chat');
    const replay = await bea.textContent('#replay-below #chat');
    assert.ok(replay.includes('Good luck, Bea!') && replay.includes('What an opening'), replay);
    await cy.goto(`${BASE}/replay/${game}`);
    await cy.waitForSelector('#replay-below #chat');
    assert.ok(!(await cy.textContent('#replay-below #chat')).includes('Good luck'));
    for (const p of [ada, bea, cy, visitor, ja]) await p.context().close();
  });
}

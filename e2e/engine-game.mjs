// Shared by the measuring scripts of the first board: a new player, signed up in a fresh browser context, with a
// Reversi game against the engine open on its page.

/** Signs up a new player at `base` and opens a game against the engine: the context and its page. */
export async function engineGame(browser, base) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(base + '/');
  const name = 'u' + Math.floor(Math.random() * 1e6);
  await page.fill('#signup input[name=name]', name);
  await page.fill('#signup input[name=password]', 'password-' + name);
  await page.click('#signup button[type=submit]');
  await page.waitForSelector('#me');
  await page.selectOption('#computer-game', 'reversi');
  await page.selectOption('#computer-color', 'first');
  await page.click('#play-computer button[type=submit]');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('#board svg [data-cell]');
  return { ctx, page };
}

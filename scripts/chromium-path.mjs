// The browser the end-to-end tests run in: Debian's Chromium, never a downloaded one. Its headless
// shell when installed (`apt-get install -y chromium-headless-shell`), the engine Playwright itself
// runs headless tests in, about a quarter faster than the whole browser (docs/decisions/0088);
// otherwise the browser. CHROMIUM_PATH overrides both. Read by playwright.config.ts and scripts/test.mjs.
import { existsSync } from 'node:fs'

export const chromiumPath =
	process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium'

// The whole browser, for what the headless shell cannot do: Lighthouse (the bench's lighthouse suite)
// needs a real Chrome's tracing and emulation. LIGHTHOUSE_CHROMIUM_PATH overrides it.
export const chromiumBrowserPath = process.env.LIGHTHOUSE_CHROMIUM_PATH ?? '/usr/bin/chromium'

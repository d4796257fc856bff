// `npm test`: Vitest (unit, and integration on PGlite or TEST_DATABASE_URL), then the Playwright
// end-to-end suite in Chromium against the built portal. Outside CI, a machine without Chromium
// runs everything else and says clearly that the browser tests were skipped.
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'

const run = (command, args) => {
	const result = spawnSync(command, args, { stdio: 'inherit', env: process.env })
	if (result.status !== 0) process.exit(result.status ?? 1)
}
const database = process.env.TEST_DATABASE_URL ? `PostgreSQL server (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})` : 'embedded PGlite'
console.log(`\n▶ unit and integration tests on ${database}\n`)
run('npx', ['vitest', 'run'])

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
	const message = `Chromium was not found at ${chromium}: the end-to-end tests need it (apt-get install -y chromium, or set CHROMIUM_PATH).`
	if (process.env.CI) {
		console.error(`✖ ${message}`)
		process.exit(1)
	}
	console.warn(`\n⚠ ${message}\n⚠ END-TO-END TESTS SKIPPED.\n`)
	process.exit(0)
}

console.log(`\n▶ building the portal, then end-to-end tests in ${chromium} on ${database}\n`)
run('npm', ['run', 'build'])
rmSync('playwright-report/results.json', { force: true })
run('npx', ['playwright', 'test'])

// `npm test`: a production build, Vitest (unit, and integration on PGlite or TEST_DATABASE_URL), the
// fuzz suite against that build (tests/fuzz, docs/decisions/0073), then the Playwright end-to-end
// suite in Chromium against it. Outside CI, a machine without Chromium runs everything else and
// says clearly that the browser tests were skipped.
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { chromiumPath } from './chromium-path.mjs'

const run = (command, args) => {
	const result = spawnSync(command, args, { stdio: 'inherit', env: process.env })
	if (result.status !== 0) process.exit(result.status ?? 1)
}
const database = process.env.TEST_DATABASE_URL ? `PostgreSQL server (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})` : 'embedded PGlite'

// The build comes first: it checks the widgets' size budget, and the unit tests measure what it built
// (tests/unit/widgets-size.test.ts never builds). CI's second pass (the other database) tests the same
// commit: it may reuse the first pass's build.
console.log('\n▶ building the portal\n')
if (process.env.REUSE_BUILD === '1' && existsSync('build/server/index.js') && existsSync('server-build/index.js') && existsSync('public/widgets/widgets.js')) console.log('(reusing the build)')
else run('npm', ['run', 'build'])

console.log(`\n▶ unit and integration tests on ${database}\n`)
run('npx', ['vitest', 'run'])

console.log(`\n▶ the fuzz suite against the build on ${database}\n`)
run('npx', ['vitest', 'run', '--config', 'vitest.fuzz.config.ts'])

if (!existsSync(chromiumPath)) {
	const message = `Chromium was not found at ${chromiumPath}: the end-to-end tests need it (apt-get install -y chromium-headless-shell or chromium, or set CHROMIUM_PATH).`
	if (process.env.CI) {
		console.error(`✖ ${message}`)
		process.exit(1)
	}
	console.warn(`\n⚠ ${message}\n⚠ END-TO-END TESTS SKIPPED.\n`)
	process.exit(0)
}

console.log(`\n▶ end-to-end tests in ${chromiumPath} on ${database}\n`)
rmSync('playwright-report/results.json', { force: true })
run('npx', ['playwright', 'test'])

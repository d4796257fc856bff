// `npm start`: serves the built portal, building it first when there is no build yet.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
process.chdir(root)
const built = existsSync('build/server/index.js') && existsSync('server-build/index.js')
if (!built) {
	console.log('No build found: running `npm run build` first…')
	const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
	if (result.status !== 0) process.exit(result.status ?? 1)
}
process.env.NODE_ENV ??= 'production'
await import(new URL('../server-build/index.js', import.meta.url).href)

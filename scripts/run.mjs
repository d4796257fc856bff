// `npm run db:migrate | db:seed | jobs | worker | admin:create | backup | restore`: runs the operator's script from the
// build, server-build/scripts/<name>.js, so a production install (no tsx, no esbuild) runs it with
// Node alone. On a development install (esbuild is there) the script is built from the current
// sources first, in about a second, so a change is never run stale (decision 0113).
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const [name, ...args] = process.argv.slice(2)
const root = fileURLToPath(new URL('..', import.meta.url))
const built = `${root}server-build/scripts/${name}.js`

const builder = await import('./build-server.mjs').catch((error) => {
	if (error?.code === 'ERR_MODULE_NOT_FOUND' && /esbuild/.test(error.message)) return null
	throw error
})
if (builder) {
	if (!builder.operatorScripts.includes(name)) {
		console.error(`Unknown script "${name}": one of ${builder.operatorScripts.join(', ')}.`)
		process.exit(2)
	}
	await builder.buildScripts([name], 'warning')
} else if (!existsSync(built)) {
	console.error(`${built} is missing: build the portal first (\`npm run build\`, on an install with the development packages).`)
	process.exit(1)
}
// The script reads its own arguments (admin:create's e-mail) as if Node had started it.
process.argv = [process.argv[0], built, ...args]
await import(pathToFileURL(built).href)

// `node --import ./tests/e2e/record-modules.mjs …`: appends the URL of every module the process
// loads through `import` to the file LOADED_MODULES_FILE names (server-start.spec.ts asks it which
// modules a start loaded). The hooks run on Node's loader thread.
import { register } from 'node:module'

const hooks = `
import { appendFileSync } from 'node:fs'
let file
export function initialize(data) { file = data.file }
export async function resolve(specifier, context, next) {
	const resolved = await next(specifier, context)
	appendFileSync(file, resolved.url + '\\n')
	return resolved
}`
if (process.env.LOADED_MODULES_FILE) register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { file: process.env.LOADED_MODULES_FILE } })

import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The repository root, found by walking up from this module. The same code runs
 * from app/ (dev, tests, scripts) and from build/server/ (production), so paths
 * to locales and migrations are resolved from here, not from the working directory.
 */
export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)))

function findProjectRoot(start: string): string {
	let dir = start
	for (;;) {
		if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'locales'))) return dir
		const parent = path.dirname(dir)
		if (parent === dir) return process.cwd()
		dir = parent
	}
}

export const migrationsDir = path.join(projectRoot, 'app', 'db', 'migrations')
export const localesDir = path.join(projectRoot, 'locales')

/**
 * Structured logs: one JSON object per line on stdout (errors on stderr), so a collector can parse them.
 */
type Level = 'debug' | 'info' | 'warn' | 'error'
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

function threshold() {
	const configured = process.env.LOG_LEVEL as Level | 'silent' | undefined
	return order[configured ?? 'info'] ?? order.info
}

function write(level: Level, msg: string, fields?: Record<string, unknown>) {
	if (order[level] < threshold()) return
	const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })
	if (level === 'error' || level === 'warn') process.stderr.write(line + '\n')
	else process.stdout.write(line + '\n')
}

export const logger = {
	debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
	info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
	warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
	error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
}

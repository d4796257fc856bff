import pino from 'pino'
import { currentRequestContext } from './request-context.server'

/**
 * Structured logs through pino: one JSON object per line on stdout, so a collector can parse them.
 * Logs never carry personal data: no form values, no query parameters, no e-mail addresses or
 * names. Fields with such names are censored wherever they appear, and errors are reduced by
 * `describeError` to their type, code and a message with quoted values removed (a failed query's
 * text and parameters, which drizzle puts into its error message, never reach the log).
 */
type Level = 'debug' | 'info' | 'warn' | 'error'
type Fields = Record<string, unknown>

/** Keys that may hold personal data or secrets, censored at the top level and one level down. */
const SENSITIVE = [
	'email',
	'to',
	'from',
	'password',
	'passwordHash',
	'token',
	'phone',
	'mobile',
	'firstName',
	'lastName',
	'name',
	'text',
	'html',
	'body',
	'params',
	'query',
	'values',
	'cookie',
	'authorization',
	'ip',
]

/** The process's logger; tests pass a stream of their own to read what would be written. */
export function createLogger(destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true })) {
	return pino(
		{
			level: process.env.LOG_LEVEL ?? 'info',
			base: { pid: process.pid },
			timestamp: pino.stdTimeFunctions.isoTime,
			formatters: { level: (label) => ({ level: label }) },
			redact: { paths: [...SENSITIVE, ...SENSITIVE.map((key) => `*.${key}`)], censor: '[redacted]' },
			serializers: { err: describeError, error: describeError },
			// Every line written while a request is handled names it, however deep the code that logs.
			mixin: () => {
				const requestId = currentRequestContext()?.requestId
				return requestId ? { requestId } : {}
			},
		},
		destination,
	)
}

let base: pino.Logger | undefined
// The level is read on first use, so tests and scripts can set LOG_LEVEL before logging.
const get = () => (base ??= createLogger())

function write(level: Level, msg: string, fields?: Fields) {
	if (fields) get()[level](fields, msg)
	else get()[level](msg)
}

export const logger = {
	debug: (msg: string, fields?: Fields) => write('debug', msg, fields),
	info: (msg: string, fields?: Fields) => write('info', msg, fields),
	warn: (msg: string, fields?: Fields) => write('warn', msg, fields),
	error: (msg: string, fields?: Fields) => write('error', msg, fields),
}

/** A path fit for the log: the secret of a password-reset, unsubscribe or widget request's link is not (routes match in any case). */
export function loggablePath(path: string) {
	return path.replace(/^\/(reset-password|unsubscribe|confirm-request)\/[^/]+/i, '/$1/[redacted]')
}

/** Values in quotes are user data in PostgreSQL's messages (`invalid input syntax for type uuid: "…"`). */
const scrub = (text: string) =>
	text
		.replace(/^Failed query:[\s\S]*$/m, 'Failed query')
		.replace(/(:\s*)"(?:[^"\\]|\\.)*"/g, '$1"[redacted]"')
		.replace(/\(([^)]*)\)=\([^)]*\)/g, '($1)=([redacted])')
		.replace(/[^\s<>"'@]+@[^\s<>"'@]+\.[a-z]{2,}/gi, '[e-mail]')
		.slice(0, 500)

/**
 * What may be logged of an error: its type, PostgreSQL code and constraint, a scrubbed message and
 * the stack frames (never the first line of a stack, which repeats the message). For an error that
 * wraps another (drizzle's query error), the innermost cause speaks.
 */
export function describeError(error: unknown): Fields {
	if (!(error instanceof Error)) return { message: scrub(String(error)) }
	let inner: Error = error
	while (inner.cause instanceof Error) inner = inner.cause
	const { code, constraint, table, column } = inner as Error & { code?: unknown; constraint?: unknown; table?: unknown; column?: unknown }
	const frames = (error.stack ?? '')
		.split('\n')
		.filter((line) => line.trimStart().startsWith('at '))
		.slice(0, 12)
		.join('\n')
	return {
		type: inner.name,
		...(typeof code === 'string' ? { code } : {}),
		...(typeof constraint === 'string' ? { constraint } : {}),
		...(typeof table === 'string' ? { table } : {}),
		...(typeof column === 'string' ? { column } : {}),
		message: inner === error ? scrub(error.message) : `${scrub(error.message.split('\n')[0] ?? '')}: ${scrub(inner.message)}`,
		...(frames ? { stack: frames } : {}),
	}
}

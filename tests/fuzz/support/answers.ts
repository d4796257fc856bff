/**
 * What every answer to a malformed request must be: below 500, and without a stack trace or
 * any internal detail (file paths, SQL, the database's error texts).
 */
import { type Answer } from './http'

const LEAKS: Array<[RegExp, string]> = [
	[/ {4}at [\w.<[/(]/, 'a stack trace ("    at …")'],
	[/node_modules/, 'a node_modules path'],
	[/Failed query/i, "drizzle's “Failed query”"],
	[/\.(?:[cm]?js|tsx?|jsx):\d+/, 'a source line reference'],
	[/\bselect\s+(?:distinct\s+)?(?:"\w+"|\*|count\(|coalesce\(|\w+\s+from\s|\w+\.\w+\s*,)/i, 'SQL (select …)'],
	[/\binsert\s+into\b/i, 'SQL (insert into)'],
	[/\bdelete\s+from\b/i, 'SQL (delete from)'],
	[/\bupdate\s+"?\w+"?\s+set\b/i, 'SQL (update … set)'],
	[/\bviolates\b/i, 'a PostgreSQL constraint error'],
	[/invalid input (?:syntax|value)/i, 'a PostgreSQL input error'],
	[/duplicate key/i, 'a PostgreSQL unique error'],
	[/invalid byte sequence|null value in column|value too long for type|out of range for type|field value out of range/i, 'a PostgreSQL error'],
	[/syntax error at or near|current transaction is aborted|relation "\w+" does not exist|unterminated quoted/i, 'a PostgreSQL error'],
	[/\b(?:TypeError|ReferenceError|RangeError|AggregateError|DrizzleError|DatabaseError|PostgresError|ZodError)\b/, 'an error class name'],
	[/\bpglite\b|postgres(?:ql)?:\/\//i, 'a database name or address'],
]

/** The problems of an answer ('' when it is fine). */
export function answerProblems(answer: Answer): string {
	const problems: string[] = []
	if (answer.status >= 500) problems.push(`status ${answer.status}`)
	for (const [pattern, what] of LEAKS) {
		const match = pattern.exec(answer.text)
		if (match) problems.push(`${what}: …${clip(answer.text.slice(Math.max(0, match.index - 60), match.index + 100))}…`)
	}
	return problems.join('; ')
}

/** A short, readable view of an answer: the page's title and main text, or the start of the body. */
export function answerSnippet(answer: Answer): string {
	const type = answer.headers.get('Content-Type') ?? ''
	let text = answer.text
	if (type.includes('html')) {
		const title = text.match(/<title>([^<]*)<\/title>/)?.[1] ?? ''
		const main = text.match(/<main[\s\S]*?<\/main>/)?.[0] ?? text
		text = `${title ? `[${title}] ` : ''}${main
			.replace(/<script[\s\S]*?<\/script>/g, ' ')
			.replace(/<[^>]+>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim()}`
	}
	const location = answer.location ? ` → ${answer.location}` : ''
	return `${answer.status}${location} ${clip(text, 300)}`
}

/** Long runs of one character shortened, control characters visible, at most `max` characters. */
export function clip(text: string, max = 600): string {
	const shortened = text.replace(/(.)\1{39,}/gs, (run, char: string) => `${char.repeat(8)}…(${run.length}×)`)
	let visible = ''
	for (const char of shortened) {
		const code = char.charCodeAt(0)
		if (code >= 0x20 && code !== 0x7f) visible += char
		else visible += char === '\n' ? '\\n' : char === '\r' ? '\\r' : char === '\t' ? '\\t' : `\\u${code.toString(16).padStart(4, '0')}`
	}
	return visible.length > max ? `${visible.slice(0, max)}…` : visible
}

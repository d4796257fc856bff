/**
 * The rules of docs/migrations.md, checked on a migration's SQL: what would lock a busy table for
 * long, or break the processes of the previous release still serving while it runs. A statement
 * may be let through with a comment right before it that says why:
 *
 *     -- migration-lint: allow <rule> <reason>
 *
 * Plain text matching, on purpose: it reads drizzle's generated SQL and the few hand-written
 * lines beside it, not any SQL there is. Used by tests/unit/migration-rules.test.ts.
 */

export const RULES = {
	'index-lock': 'CREATE INDEX on an existing table blocks its writes while it builds: build it CONCURRENTLY by hand first and write CREATE INDEX IF NOT EXISTS, or allow it for a small table',
	'concurrently-in-transaction': 'CONCURRENTLY cannot run in a migration (drizzle runs them in one transaction): build the index by hand, see docs/migrations.md',
	'constraint-not-valid': 'a CHECK or FOREIGN KEY on an existing table is added NOT VALID, then checked with VALIDATE CONSTRAINT in a later statement',
	'column-type': 'ALTER COLUMN … TYPE rewrites the table under an exclusive lock: add a new column, fill it, switch (expand and contract)',
	'volatile-default': 'ADD COLUMN with a volatile DEFAULT (or serial, or a stored generated column) rewrites the table: add it without, fill it in batches',
	'set-not-null': 'SET NOT NULL scans the table under an exclusive lock: add CHECK (col IS NOT NULL) NOT VALID, VALIDATE it, then SET NOT NULL',
	rename: 'a renamed table or column breaks the previous release while it still serves: add the new one, copy, drop the old one a release later',
	drop: 'a dropped table or column breaks the previous release if it still uses it: drop it a release after the code stopped using it',
	'validate-same-release': 'VALIDATE CONSTRAINT in the migration that added it NOT VALID runs in the same transaction, under the same lock: validate it in a later release',
	backfill: 'an UPDATE or DELETE of existing rows holds their locks until every migration of the release is over: fill big tables in batches outside the migration',
	'allow-without-reason': 'a migration-lint allow comment names the rule and says why',
} as const

export type Rule = keyof typeof RULES
export type Problem = { rule: Rule; statement: string; message: string }

type Statement = { sql: string; allowed: Map<string, string> }

const ALLOW = /--\s*migration-lint:\s*allow\s+([\w-]+)\s*(.*)$/

/**
 * The statements of a migration, each with the allow comments before it. Splits on `;` outside
 * quotes, quoted names and dollar-quoted bodies (trigger functions), and drops other comments.
 */
export function statements(source: string): Statement[] {
	const result: Statement[] = []
	let current = ''
	let allowed = new Map<string, string>()
	let i = 0
	const flush = () => {
		const sql = current.replace(/\s+/g, ' ').trim()
		if (sql) result.push({ sql, allowed })
		if (sql) allowed = new Map()
		current = ''
	}
	while (i < source.length) {
		const rest = source.slice(i)
		if (rest.startsWith('--')) {
			const end = rest.indexOf('\n') === -1 ? rest.length : rest.indexOf('\n')
			const comment = rest.slice(0, end)
			const allow = ALLOW.exec(comment)
			if (allow) allowed.set(allow[1]!, allow[2]!.trim())
			i += end
			continue
		}
		const dollar = /^\$\w*\$/.exec(rest)
		const quote = rest[0] === "'" || rest[0] === '"' ? rest[0] : null
		if (dollar || quote) {
			const delimiter = dollar ? dollar[0] : quote!
			const close = source.indexOf(delimiter, i + delimiter.length)
			const end = close === -1 ? source.length : close + delimiter.length
			current += source.slice(i, end)
			i = end
			continue
		}
		if (rest[0] === ';') {
			flush()
			i++
			continue
		}
		current += rest[0]
		i++
	}
	flush()
	return result
}

const name = String.raw`(?:"[^"]+"|\w+)`
const qualified = String.raw`(?:${name}\.)?(${name})`
const unquote = (identifier: string) => identifier.replace(/^"|"$/g, '').toLowerCase()

/** The problems of one migration; `created` are the tables it makes itself (new, empty: anything goes). */
export function lintMigration(source: string): Problem[] {
	const all = statements(source)
	const created = new Set<string>()
	for (const { sql } of all) {
		const table = new RegExp(String.raw`^CREATE TABLE (?:IF NOT EXISTS )?${qualified}`, 'i').exec(sql)
		if (table) created.add(unquote(table[1]!))
	}
	const notValid = new Set<string>()
	for (const { sql } of all) {
		const added = new RegExp(String.raw`\bADD CONSTRAINT (${name}) .*\bNOT VALID\b`, 'i').exec(sql)
		if (added) notValid.add(unquote(added[1]!))
	}
	const problems: Problem[] = []
	for (const { sql, allowed } of all) {
		const found = new Set<Rule>()
		const altered = new RegExp(String.raw`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?${qualified}`, 'i').exec(sql)
		const indexed = new RegExp(String.raw`^CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?(?:IF NOT EXISTS )?(?:${name} )?ON (?:ONLY )?${qualified}`, 'i').exec(sql)
		const existing = (table: string | undefined) => table !== undefined && !created.has(unquote(table))

		if (/\bCONCURRENTLY\b/i.test(sql)) found.add('concurrently-in-transaction')
		if (indexed && !indexed[1] && existing(indexed[2])) found.add('index-lock')
		if (altered && existing(altered[1])) {
			if (/\bADD CONSTRAINT\b.*\b(CHECK|FOREIGN KEY)\b/i.test(sql) && !/\bNOT VALID\b/i.test(sql)) found.add('constraint-not-valid')
			if (/\bALTER (?:COLUMN )?\S+ (?:SET DATA )?TYPE\b/i.test(sql)) found.add('column-type')
			if (/\bADD (?:COLUMN )?.*\bDEFAULT\b.*\b(random|gen_random_uuid|uuid_generate_\w+|clock_timestamp|timeofday|nextval)\s*\(/i.test(sql)) found.add('volatile-default')
			if (/\bADD (?:COLUMN )?(?:IF NOT EXISTS )?\S+ (?:big|small)?serial\b/i.test(sql) || /\bGENERATED ALWAYS AS\b.*\bSTORED\b/i.test(sql)) found.add('volatile-default')
			if (/\bSET NOT NULL\b/i.test(sql)) found.add('set-not-null')
			if (/\bRENAME\b/i.test(sql)) found.add('rename')
			if (/\bDROP COLUMN\b/i.test(sql)) found.add('drop')
		}
		const validated = new RegExp(String.raw`\bVALIDATE CONSTRAINT (${name})`, 'i').exec(sql)
		if (validated && notValid.has(unquote(validated[1]!))) found.add('validate-same-release')
		if (/^DROP TABLE\b/i.test(sql)) found.add('drop')
		const changed = new RegExp(String.raw`^(?:UPDATE|DELETE FROM) (?:ONLY )?${qualified}`, 'i').exec(sql)
		if (changed && existing(changed[1])) found.add('backfill')

		for (const [rule, reason] of allowed) {
			if (!reason) problems.push({ rule: 'allow-without-reason', statement: sql, message: `${RULES['allow-without-reason']} (allow ${rule})` })
		}
		for (const rule of found) {
			if (allowed.get(rule)) continue
			problems.push({ rule, statement: sql.slice(0, 160), message: RULES[rule] })
		}
	}
	return problems
}

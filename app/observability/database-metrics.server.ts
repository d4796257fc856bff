import { sql } from 'drizzle-orm'
import client from 'prom-client'
import { getConnection, pgErrorCode, queryRows } from '~/db/db.server'
import { logger } from '~/utils/logger.server'
import { withTimeout } from '~/utils/promises'

/**
 * Metrics read from the database when Prometheus scrapes, never on a request: the PostgreSQL
 * pool's counts (in memory), and one query (at most every few seconds, two seconds at most) for
 * the e-mail outbox and pg-boss's queues. Values every process reads alike (the outbox, the
 * queues) are summed by nobody: with several web processes the primary keeps their maximum.
 */
const SCRAPE_TIMEOUT_MS = 2_000
/** Several gauges read one snapshot; a second scrape within this reads it again. */
const SNAPSHOT_MS = 5_000

type Queue = { name: string; waiting: number; failed: number; oldest: number | null }
type Snapshot = { outboxBacklog: number; outboxOldest: number | null; outboxFailed: number; queues: Queue[] | null }

const OUTBOX = sql`select count(*) filter (where status = 'pending')::int as "outboxBacklog",
	extract(epoch from now() - min(created_at) filter (where status = 'pending'))::float8 as "outboxOldest",
	count(*) filter (where status = 'failed')::int as "outboxFailed"
	from email_outbox`

// pg-boss 10: one row per job; `created` and `retry` wait, `failed` gave up (kept until pg-boss deletes it).
const WITH_QUEUES = sql`select o.*, (
	select coalesce(json_agg(q), '[]'::json) from (
		select name,
			count(*) filter (where state in ('created', 'retry'))::int as waiting,
			count(*) filter (where state = 'failed')::int as failed,
			extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now()))::float8 as oldest
		from pgboss.job group by name
	) q) as queues
	from (${OUTBOX}) o`

let cached: { at: number; snapshot: Promise<Snapshot | null> } | undefined
let queuesMissing = false

async function readSnapshot(): Promise<Snapshot | null> {
	const connection = getConnection()
	// On PGlite the jobs run on timers: there is no queue to count (autohub_job_runs_total says what ran).
	const withQueues = connection.kind === 'postgres' && !queuesMissing
	const query = async () => {
		try {
			return await queryRows<Snapshot>(connection.db, withQueues ? WITH_QUEUES : OUTBOX)
		} catch (error) {
			// The pgboss schema is made when the first queue starts: until then, the outbox alone.
			if (withQueues && pgErrorCode(error) === '42P01') {
				queuesMissing = true
				setTimeout(() => (queuesMissing = false), 60_000).unref()
				return queryRows<Snapshot>(connection.db, OUTBOX)
			}
			throw error
		}
	}
	try {
		const rows = await withTimeout(query(), SCRAPE_TIMEOUT_MS, 'late' as const)
		if (rows === 'late') throw new Error(`the metrics query took over ${SCRAPE_TIMEOUT_MS} ms`)
		const [row] = rows
		return row ? { ...row, queues: withQueues ? (row.queues ?? []) : null } : null
	} catch (error) {
		logger.warn('metrics: the database could not be read', { err: error })
		return null
	}
}

function snapshot(): Promise<Snapshot | null> {
	if (!cached || Date.now() - cached.at > SNAPSHOT_MS) cached = { at: Date.now(), snapshot: readSnapshot() }
	return cached.snapshot
}

let registered = false

/** Registers the database's gauges in this process (a web process, the worker); their values are read at scrape time. */
export function registerDatabaseMetrics() {
	if (registered || client.register.getSingleMetric('autohub_db_pool_connections')) return
	registered = true

	new client.Gauge({
		name: 'autohub_db_pool_connections',
		help: 'PostgreSQL connections of the app pool, by state: in_use, idle, and waiting (requests waiting for a connection)',
		labelNames: ['state'] as const,
		collect() {
			const pool = getConnection().pool
			if (!pool) return
			this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount)
			this.set({ state: 'idle' }, pool.idleCount)
			this.set({ state: 'waiting' }, pool.waitingCount)
		},
	})
	new client.Gauge({
		name: 'autohub_db_pool_max',
		help: 'The most connections the app pool opens',
		collect() {
			const pool = getConnection().pool
			if (pool) this.set(pool.options.max ?? 10)
		},
	})

	new client.Gauge({
		name: 'autohub_metrics_database_up',
		help: '1 when the last metrics query answered within its time limit, else 0',
		aggregator: 'min',
		async collect() {
			this.set((await snapshot()) ? 1 : 0)
		},
	})
	const outbox = (name: string, help: string, value: (s: Snapshot) => number | null) =>
		new client.Gauge({
			name,
			help,
			aggregator: 'max',
			async collect() {
				const read = await snapshot()
				if (read) this.set(value(read) ?? 0)
			},
		})
	outbox('autohub_email_outbox_backlog', 'E-mails in the outbox waiting to be sent (pending)', (s) => s.outboxBacklog)
	outbox('autohub_email_outbox_oldest_unsent_seconds', 'Age of the oldest e-mail still waiting to be sent (0 when none waits)', (s) => s.outboxOldest)
	outbox('autohub_email_outbox_failed', 'E-mails the outbox gave up on (failed), as kept', (s) => s.outboxFailed)

	const queue = (name: string, help: string, value: (q: Queue) => number | null) =>
		new client.Gauge({
			name,
			help,
			labelNames: ['queue'] as const,
			aggregator: 'max',
			async collect() {
				const read = await snapshot()
				if (!read?.queues) return
				this.reset()
				for (const found of read.queues) this.set({ queue: found.name }, value(found) ?? 0)
			},
		})
	queue('autohub_job_queue_depth', 'Jobs waiting in a pg-boss queue (created or retry)', (q) => q.waiting)
	queue('autohub_job_queue_failed', 'Jobs of a pg-boss queue that failed for good, as pg-boss keeps them', (q) => q.failed)
	queue('autohub_job_queue_oldest_waiting_seconds', 'Age of the oldest job of a queue that is due and still waits (0 when none)', (q) => q.oldest)
}

import pg from 'pg'
import { callLoop, type CallFigures, targetVerdict } from '../lib/in-process'
import { printColumns } from '../lib/report'
import { seedingSession } from '../lib/seed'
import { type BenchCase, type BenchSuite, type DirectContext } from '../types'

/**
 * A workshop's free times (issue 33, item 8): 10,000 of the directory suite's workshops (the quiet
 * tail, numbers 90,001–100,000, apart from the signed-in suite's) get a calendar: 1–4 bays, weekly
 * hours with a lunch break (a tenth keep their profile's hours), Saturdays for half, some days off,
 * and 0–40 bookings in the next 14 days on weekdays (plus half as many in the week before, ended),
 * each with its own request and offer. The portal's own `freeTimes` (calendar.server.ts) is called
 * in this process on the bench database for random workshops, at the seed's "now" so a reused
 * database measures the same bookings; beside it, the same six queries sent bare with pg (no
 * Drizzle, no free-time engine), measured in the same run. Target: p99 under 20 ms.
 */
export const CALENDARS = 10_000
/** The calendar workshops are the directory's workshops FIRST + 1 … FIRST + CALENDARS. */
const FIRST = 90_000
export const TARGET_P99_MS = 20
const DAYS = 14

const zone = `'Europe/Tallinn'`
const today = `(now() at time zone ${zone})::date`

async function seed(client: pg.Client, log: (message: string) => void) {
	const step = await seedingSession(client, log)
	const workshop = (i: string) => `md5('workshop' || (${FIRST} + ${i}))::uuid`
	await step(
		`${CALENDARS} calendars`,
		`insert into workshop_calendars (workshop_id, min_notice_minutes, horizon_days, buffer_minutes, step_minutes, open_on_public_holidays, own_hours)
		 select ${workshop('i')}, (array[60, 120, 240])[1 + i % 3], (array[28, 42, 60])[1 + (i / 3) % 3], (array[0, 10, 15, 30])[1 + i % 4],
		        (array[15, 30, 60])[1 + (i / 7) % 3], i % 10 = 3, i % 10 <> 9
		 from generate_series(1, ${CALENDARS}) i`,
	)
	await step(
		'bays (1–4 each)',
		`insert into workshop_bays (id, workshop_id, position, name)
		 select md5('bay' || i || '-' || b)::uuid, ${workshop('i')}, b, 'Bay ' || b
		 from generate_series(1, ${CALENDARS}) i, generate_series(1, 4) b where b <= 1 + i % 4`,
	)
	// Weekdays: a morning and an afternoon (a lunch break of 30 or 60 minutes); Saturdays for half, Sundays for a tenth.
	await step(
		'weekly hours',
		`insert into workshop_hours (workshop_id, weekday, opens, closes)
		 select ${workshop('i')}, d, o, c from generate_series(1, ${CALENDARS}) i,
		 lateral (select d, (array['07:00', '08:00', '09:00'])[1 + i % 3]::time as o, '12:00'::time as c from generate_series(1, 5) d
		          union all
		          select d, (case when i % 2 = 0 then '12:30' else '13:00' end)::time, (array['17:00', '18:00', '19:00'])[1 + (i / 3) % 3]::time from generate_series(1, 5) d
		          union all select 6, '10:00', '15:00' where i % 2 = 0
		          union all select 7, '11:00', '15:00' where i % 10 = 0) h
		 where i % 10 <> 9`,
	)
	await step(
		'days off (about two a month)',
		`insert into workshop_days_off (workshop_id, day, note)
		 select ${workshop('i')}, ${today} + d, 'Suletud' from generate_series(1, ${CALENDARS}) i, generate_series(0, 30) d
		 where abs(hashtext(i || 'off' || d)) % 15 = 0`,
	)
	// The bookings: 90-minute blocks at 09:00, 10:30, 13:00 and 14:30 of each weekday and bay (inside
	// every variant's hours, never overlapping), 0–40 of them ahead and half as many in the last week.
	await step(
		'bookings planned',
		`create temporary table bench_bookings as
		 select row_number() over () as m, * from (
		   select i, b, start, (array[30, 45, 60])[1 + abs(hashtext(i || '-' || b || start::text)) % 3] as minutes, past,
		          row_number() over (partition by i, past order by md5(i || '-' || b || start::text)) as rank
		   from generate_series(1, ${CALENDARS}) i,
		        lateral generate_series(1, 1 + i % 4) b,
		        lateral generate_series(-7, ${DAYS - 1}) d,
		        lateral (values ('09:00'::time), ('10:30'), ('13:00'), ('14:30')) j(t),
		        lateral (select ((${today} + d) + j.t) at time zone ${zone} as start, d < 0 as past) s
		   where extract(isodow from ${today} + d) <= 5
		 ) c
		 where rank <= case when past then 1 else 2 end * (abs(hashtext('count' || i)) % 41) / 2`,
	)
	await step(
		'their requests',
		`insert into service_requests (id, customer_id, vehicle_id, preferred_at, location, details, status, selected_offer_id, created_at, updated_at)
		 select md5('booking-request' || m)::uuid, md5('customer' || (1 + m % 3000))::uuid, md5('vehicle' || (1 + m % 3000))::uuid, start,
		        'Tallinn', 'Hooldus ja rehvivahetus.', case when past then 'completed' else 'in_progress' end::request_status,
		        md5('booking-offer' || m)::uuid, start - interval '7 days', start - interval '6 days'
		 from bench_bookings`,
	)
	await step(
		'their offers',
		`insert into offers (id, request_id, workshop_id, price_cents, status, booking_minutes, selected_at, completed_at, created_at, updated_at)
		 select md5('booking-offer' || m)::uuid, md5('booking-request' || m)::uuid, ${workshop('i')}, 4000 + (m % 30) * 500,
		        case when past then 'job_completed' else 'selected' end::offer_status, minutes, start - interval '6 days',
		        case when past then start + minutes * interval '1 minute' end, start - interval '6 days 12 hours', start - interval '6 days'
		 from bench_bookings`,
	)
	await step(
		'bookings',
		`insert into bookings (id, workshop_id, bay_id, offer_id, request_id, customer_id, starts_at, ends_at, blocks_until, status, created_at, updated_at)
		 select md5('booking' || m)::uuid, ${workshop('bb.i')}, md5('bay' || bb.i || '-' || b)::uuid, md5('booking-offer' || m)::uuid,
		        md5('booking-request' || m)::uuid, md5('customer' || (1 + m % 3000))::uuid, start, start + minutes * interval '1 minute',
		        start + (minutes + c.buffer_minutes) * interval '1 minute',
		        (case when past then (case when m % 20 = 0 then 'no_show' when m % 10 = 1 then 'cancelled' else 'done' end)
		              else (case when m % 20 = 0 then 'cancelled' else 'booked' end) end)::booking_status,
		        start - interval '6 days', start - interval '6 days'
		 from bench_bookings bb join workshop_calendars c on c.workshop_id = ${workshop('bb.i')}`,
	)
	await client.query('drop table bench_bookings')
	await client.query('set session_replication_role = origin')
	await step('analyze', 'analyze workshop_calendars; analyze workshop_bays; analyze workshop_hours; analyze workshop_days_off; analyze bookings; analyze offers; analyze service_requests')
}

const FREE_TIMES = `free times, 60 min, next ${DAYS} days`
const FIRST_FREE = 'first free time, 60 min (the directory’s next free)'

async function cases(): Promise<BenchCase[]> {
	// Measured in this process (`direct`): no requests to send.
	return [FREE_TIMES, FIRST_FREE].map((name) => ({ name, requests: [] }))
}

/** The six queries freeTimes sends (calendarRules' five at once, then the busy times), bare with pg. */
async function bareFreeTimes(pool: pg.Pool, workshopId: string, now: Date, until: Date) {
	await Promise.all([
		pool.query('select * from workshop_calendars where workshop_id = $1', [workshopId]),
		pool.query('select id from workshop_bays where workshop_id = $1 order by position', [workshopId]),
		pool.query('select weekday, opens, closes from workshop_hours where workshop_id = $1 order by weekday, opens', [workshopId]),
		pool.query(`select day from workshop_days_off where workshop_id = $1 and day >= $2::date - 1`, [workshopId, now.toISOString().slice(0, 10)]),
		pool.query('select weekday_opens, weekday_closes, saturday_opens, saturday_closes, sunday_opens, sunday_closes from workshops where id = $1', [workshopId]),
	])
	await pool.query(
		`select bay_id, starts_at, blocks_until from bookings
		 where workshop_id = $1 and status in ('booked', 'car_received', 'in_work', 'ready') and starts_at < $2 and blocks_until > $3`,
		[workshopId, until, now],
	)
}

async function direct({ databaseUrl, cases, connections, duration, warmup, log }: DirectContext): Promise<{ failed: boolean }> {
	process.env.DATABASE_URL = databaseUrl
	process.env.LOG_LEVEL ??= 'warn'
	const { resetEnvCache } = await import('../../../app/utils/env.server')
	resetEnvCache()
	const { freeTimes } = await import('../../../app/domain/booking/calendar.server')
	const { closeDatabase } = await import('../../../app/db/db.server')
	const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
	try {
		const { rows: seeded } = await pool.query<{ at: Date }>(`select seeded_at as at from bench_seed where suite = 'free-times'`)
		// The seed's now: the bookings ahead are the same however long the database is reused.
		const now = seeded[0]!.at
		const until = new Date(now.getTime() + DAYS * 24 * 3600_000)
		const { rows } = await pool.query<{ id: string }>('select workshop_id as id from workshop_calendars order by workshop_id')
		const ids = rows.map((row) => row.id)
		const pick = () => ids[Math.floor(Math.random() * ids.length)]!
		const table: string[][] = []
		const reasons: string[] = []
		for (const benchCase of cases) {
			const limit = benchCase.name === FIRST_FREE ? 1 : undefined
			for (const c of connections) {
				const portal = await callLoop((id: string) => freeTimes(id, { durationMinutes: 60, now, until, limit }), pick, { connections: c, seconds: duration, warmup })
				const bare = await callLoop((id: string) => bareFreeTimes(pool, id, now, until), pick, { connections: c, seconds: duration, warmup })
				const row = (name: string, f: CallFigures) => [name, `${c}`, f.p50.toFixed(1), f.p95.toFixed(1), f.p99.toFixed(1), f.perSecond.toFixed(0)]
				table.push(row(benchCase.name, portal), row(`${benchCase.name} — bare queries`, bare))
				log(`${benchCase.name}, ${c}c: p50 ${portal.p50.toFixed(1)} ms, p99 ${portal.p99.toFixed(1)} ms (bare ${bare.p50.toFixed(1)} / ${bare.p99.toFixed(1)} ms), p99 ×${(portal.p99 / Math.max(bare.p99, 0.01)).toFixed(2)}`)
				// The goal is the call's own time: one at a time.
				const verdict = targetVerdict(portal, TARGET_P99_MS)
				if (c === 1 && !verdict.met) reasons.push(`${benchCase.name}: ${verdict.reason}`)
			}
		}
		console.log('')
		printColumns(['free-times', 'conn.', 'p50 ms', 'p95 ms', 'p99 ms', 'calls/s'], table)
		console.log(`baseline: the same six queries bare with pg (no Drizzle, no free-time engine); target: p99 < ${TARGET_P99_MS} ms at 1 connection`)
		if (reasons.length) console.log(reasons.join('\n'))
		return { failed: reasons.length > 0 }
	} finally {
		await pool.end()
		await closeDatabase()
	}
}

export const freeTimesSuite: BenchSuite = {
	name: 'free-times',
	description: `${CALENDARS.toLocaleString('en')} workshops with calendars and bookings: a workshop's free times for ${DAYS} days (calendar.server.ts freeTimes, in process)`,
	seedVersion: 1,
	seed,
	cases,
	direct,
}

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import pg from 'pg'
import { formatMoney } from '../../../app/utils/money'
import { seedingSession } from '../lib/seed'
import { type BenchCase, type BenchSuite } from '../types'

/**
 * The notification poll (issue 7): every signed-in browser asks every 15 seconds, so it is the
 * busiest call of the product. 10,000 users with an API token each and 1,000,000 notifications
 * (100 per user, a third unread). The portal answers with one query for the token and one for
 * the list and unread count together; a bare node:http server runs the same two queries, so the
 * ratio is what React Router, Express and our layers cost per poll.
 */
export const POLL_USERS = 10_000
export const NOTIFICATIONS = 1_000_000

export const token = (n: number) => `bench-poll-token-${String(n).padStart(6, '0')}`
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

async function seed(client: pg.Client, log: (message: string) => void) {
	const step = await seedingSession(client, log)
	await step(
		`${POLL_USERS} users`,
		`insert into users (id, email, password_hash, role, first_name, last_name)
		 select md5('poll' || n)::uuid, 'poll' || n || '@bench.example', 'bench-no-login', 'customer', 'Poll', 'User ' || n
		 from generate_series(1, ${POLL_USERS}) n`,
	)
	// The token hashes are computed here (SHA-256 of a known token), so the cases can send the tokens.
	await client.query(
		`insert into sessions (user_id, kind, token_hash, expires_at)
		 select md5('poll' || n)::uuid, 'api', h, now() + interval '10 years'
		 from unnest($1::int[], $2::text[]) as t(n, h)`,
		[Array.from({ length: POLL_USERS }, (_, i) => i + 1), Array.from({ length: POLL_USERS }, (_, i) => sha256(token(i + 1)))],
	)
	await step(
		`${NOTIFICATIONS} notifications`,
		`insert into notifications (user_id, type, message_key, message_params, received_id, is_read, created_at)
		 select md5('poll' || (1 + m % ${POLL_USERS}))::uuid, 1 + m % 5,
		        (array['notifications.newOffer','notifications.offerSelected','notifications.jobCompleted','notifications.newReview','notifications.reviewReply'])[1 + m % 5],
		        jsonb_build_object('workshop', 'Garage ' || m % 97, 'customer', 'Mari', 'priceCents', 12000, 'rating', 5),
		        md5('poll-item' || m)::uuid, m % 3 <> 0, now() - (m / ${POLL_USERS}) * interval '1 hour'
		 from generate_series(1, ${NOTIFICATIONS}) m`,
	)
	await client.query('set session_replication_role = origin')
	await step('analyze', 'analyze notifications; analyze sessions')
}

async function cases(): Promise<BenchCase[]> {
	// 1,000 different users in turn, so no cache answers for one of them.
	const requests = Array.from({ length: 1000 }, (_, i) => ({
		path: '/admin/api/get-notification?lng=en',
		method: 'POST' as const,
		headers: { Authorization: `Bearer ${token(1 + ((i * 7919) % POLL_USERS))}`, 'Content-Type': 'application/json' },
		body: '{}',
	}))
	return [{ name: `get-notification poll (${POLL_USERS} users, ${NOTIFICATIONS / 1e6}M notifications)`, requests }]
}

/** The same answer from plain node:http and pg: the token lookup, then the list-and-count query. */
export async function startBare(databaseUrl: string, port: number) {
	const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
	const dictionary = JSON.parse(readFileSync('locales/en/common.json', 'utf8')) as { notifications: Record<string, string> }
	// Amounts are stored in cents and formatted for the reader, as the portal does.
	const translate = (key: string, params: Record<string, unknown>) => {
		const values = typeof params.priceCents === 'number' ? { ...params, price: formatMoney(params.priceCents, 'en') } : params
		return (dictionary.notifications[key.replace('notifications.', '')] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''))
	}
	const server = http.createServer((request, response) => {
		const reply = (status: number, body: unknown) => {
			response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
			response.end(JSON.stringify(body))
		}
		request.resume()
		request.on('end', async () => {
			try {
				const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(request.headers.authorization ?? '')
				if (!match) return reply(401, { status: 401, message: 'Please login to continue!' })
				const user = await pool.query(
					`select u.id from sessions s join users u on u.id = s.user_id
					 where s.token_hash = $1 and s.kind = 'api' and s.expires_at > now() and not u.blocked`,
					[sha256(match[1]!)],
				)
				const userId = user.rows[0]?.id as string | undefined
				if (!userId) return reply(401, { status: 401, message: 'Please login to continue!' })
				const list = await pool.query(
					`select n.id, n.type, n.message_key, n.message_params, n.received_id, n.is_read, n.created_at,
					        (select count(*) from notifications u where u.user_id = $1 and not u.is_read) as unread
					 from notifications n where n.user_id = $1 order by n.created_at desc limit 20`,
					[userId],
				)
				reply(200, {
					status: 200,
					notifications: list.rows.map((row) => ({
						id: row.id,
						message: translate(row.message_key, row.message_params),
						is_read: row.is_read,
						type: row.type,
						received_id: row.received_id,
						created_at: new Date(row.created_at).toISOString(),
					})),
					unreadNotifications: list.rows.length ? Number(list.rows[0].unread) : 0,
				})
			} catch (error) {
				reply(500, { status: 500, message: String(error) })
			}
		})
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	return {
		url: `http://127.0.0.1:${port}`,
		stop: async () => {
			await new Promise<void>((resolve) => server.close(() => resolve()))
			await pool.end()
		},
	}
}

export const notificationsSuite: BenchSuite = {
	name: 'notifications',
	description: `the bell's poll with ${POLL_USERS} users and ${NOTIFICATIONS} notifications, against a bare node:http server`,
	// 2: offer prices in cents (priceCents), as the portal stores them.
	seedVersion: 2,
	seed,
	cases,
	baseline: { label: 'bare node:http, same queries', start: startBare },
}

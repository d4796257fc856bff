import type pg from 'pg'
import { encodeId } from '../../../app/utils/public-id'
import { type Answer, loadAnswer, serveAnswers } from '../lib/bare-page'
import { languageCookie } from '../lib/server'
import { type BenchCase, type BenchSuite } from '../types'

/**
 * Anonymous public pages (issue 18, goal 2) against the cheapest server there is: a bare node:http
 * server answering each of the case's requests with the portal's own answer, body and headers,
 * kept in memory. The ratio is how close the portal comes to sending a page it already has. The
 * visitors are returning ones: their language is in the `lng` cookie, as the portal leaves it.
 * Uses the directory suite's data (it seeds nothing of its own).
 */
const lng = (language: string) => ({ Cookie: languageCookie(language) })

async function cases(client: pg.Client): Promise<BenchCase[]> {
	const { rows } = await client.query<{ id: string }>(`select id from workshops where abs(hashtext(id::text)) % 1000 = 7 order by id limit 20`)
	const page = (path: string) => ({ path, headers: lng('en') })
	return [
		{ name: 'home page (anonymous)', requests: [page('/')] },
		{ name: 'list page (anonymous)', requests: [page('/workshop-list')] },
		{ name: 'workshop page (anonymous, 20 workshops)', requests: rows.map((row) => page(`/workshop-details/${encodeId(row.id)}`)) },
		{ name: 'cities page (anonymous)', requests: [page('/cities')] },
	]
}

/** Each request of the case answered with what the portal answered it (for that address and cookie), from memory. */
export async function fromMemory(_databaseUrl: string, port: number, benchCase: BenchCase, portalUrl: string) {
	const answers = new Map<string, Answer>()
	const key = (path: string, cookie: string | undefined) => `${path}\n${cookie ?? ''}`
	for (const request of benchCase.requests) {
		answers.set(key(request.path, request.headers?.Cookie), await loadAnswer(new URL(request.path, portalUrl), { headers: request.headers }))
	}
	return serveAnswers(port, (request) => answers.get(key(request.url ?? '', request.headers.cookie)))
}

export const pagesSuite: BenchSuite = {
	name: 'pages',
	description: 'anonymous public pages against a bare node:http server sending the same answers from memory',
	seedVersion: 1,
	seed: async () => {},
	cases,
	baseline: { label: 'bare node:http, same answers from memory', start: fromMemory },
}

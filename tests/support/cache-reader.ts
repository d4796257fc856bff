/**
 * Another portal process for tests/integration/cache-invalidation.test.ts: on the test file's
 * database (DATABASE_URL from the parent), it listens for cache changes like a web process does and
 * answers, one JSON line per line read, what its caches say now: `site` (the site name), `cities`
 * (the active cities' codes). It prints `ready` once it listens.
 */
import readline from 'node:readline'
import { getSiteData } from '~/domain/site/site.server'
import { referenceLists } from '~/domain/site/reference.server'
import { cacheListenerReady, startCacheListener, stopCacheListener } from '~/caching/cache-bus.server'
import { closeDatabase } from '~/db/db.server'

startCacheListener()
while (!cacheListenerReady()) await new Promise((resolve) => setTimeout(resolve, 20))
console.log('ready')

for await (const line of readline.createInterface({ input: process.stdin })) {
	if (line === 'site') console.log(JSON.stringify((await getSiteData()).appname))
	else if (line === 'cities') console.log(JSON.stringify([...(await referenceLists()).cities.idByCode.keys()]))
	else break
}
await stopCacheListener()
await closeDatabase()

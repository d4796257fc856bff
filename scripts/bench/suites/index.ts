import { type BenchProcessSuite, type BenchSuite } from '../types'
import { directorySuite } from './directory'
import { freeTimesSuite } from './free-times'
import { javascriptSuite } from './javascript'
import { lighthouseSuite } from './lighthouse'
import { notificationsSuite } from './notifications'
import { pagesSuite } from './pages'
import { peakSuite } from './peak'
import { priceRangesSuite } from './price-ranges'
import { signedInSuite } from './signed-in'
import { startSuite } from './start'

/** The request suites, in seeding order (peak relies on the notifications and signed-in suites' data, free-times and price-ranges on the directory's workshops). */
export const suites: BenchSuite[] = [directorySuite, notificationsSuite, pagesSuite, signedInSuite, peakSuite, freeTimesSuite, priceRangesSuite]

/** The process suites (they start what they measure: no seeded database, no running portal), run after the request suites, in this order. */
export const processSuites: BenchProcessSuite[] = [javascriptSuite, startSuite, lighthouseSuite]

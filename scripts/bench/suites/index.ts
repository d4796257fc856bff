import { type BenchSuite } from '../types'
import { directorySuite } from './directory'
import { notificationsSuite } from './notifications'
import { pagesSuite } from './pages'

/** Every suite, in seeding order. */
export const suites: BenchSuite[] = [directorySuite, notificationsSuite, pagesSuite]

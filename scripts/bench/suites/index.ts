import { type BenchSuite } from '../types'
import { directorySuite } from './directory'
import { notificationsSuite } from './notifications'

/** Every suite, in seeding order. */
export const suites: BenchSuite[] = [directorySuite, notificationsSuite]

import { type BenchSuite } from '../types'
import { directorySuite } from './directory'

/** Every suite, in seeding order. Later issues add theirs here (the notification poll is next). */
export const suites: BenchSuite[] = [directorySuite]

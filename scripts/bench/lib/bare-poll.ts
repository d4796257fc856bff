/**
 * The notifications suite's bare poll server (node:http + pg, the poll's two queries) in a process
 * of its own, for the peak suite: measured by the same driver as the portal, it must not share the
 * driver's event loop or core, as the portal does not.
 *
 *   node --import tsx scripts/bench/lib/bare-poll.ts <port> <database url>
 */
import { startBare } from '../suites/notifications'

const [port, databaseUrl] = process.argv.slice(2)
const bare = await startBare(databaseUrl!, Number(port))
process.once('SIGTERM', () => void bare.stop().then(() => process.exit(0)))

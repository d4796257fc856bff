import { type AddressInfo } from 'node:net'
import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'

export type ReceivedEmail = {
	from: string
	to: string[]
	subject: string
	text: string
	html: string
	messageId: string
	/** Header names in lower case, as mail programs read them. */
	headers: Record<string, string>
	attachments: Array<{ filename: string | null; mimeType: string; size: number }>
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, for tests of the e-mail outbox.
 * It can be stopped and started again on the same port to play an SMTP outage.
 */
export class SmtpSink {
	readonly received: ReceivedEmail[] = []
	readonly errors: Error[] = []
	private server: SMTPServer | null = null
	port = 0

	async start(port = 0) {
		this.server = new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS'],
			logger: false,
			// A test's sink has no mail to finish on close: the clients of stopped processes need no grace.
			closeTimeout: 1000,
			onData: (stream, session, callback) => {
				const chunks: Buffer[] = []
				stream.on('data', (chunk: Buffer) => chunks.push(chunk))
				stream.on('end', async () => {
					const parsed = await PostalMime.parse(Buffer.concat(chunks))
					this.received.push({
						from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
						to: session.envelope.rcptTo.map((r) => r.address),
						subject: parsed.subject ?? '',
						text: parsed.text ?? '',
						html: parsed.html ?? '',
						messageId: parsed.messageId ?? '',
						headers: Object.fromEntries(parsed.headers.map((header) => [header.key.toLowerCase(), header.value])),
						attachments: parsed.attachments.map((a) => ({
							filename: a.filename,
							mimeType: a.mimeType,
							size: typeof a.content === 'string' ? a.content.length : a.content.byteLength,
						})),
					})
					callback()
				})
			},
		})
		await new Promise<void>((resolve, reject) => {
			this.server!.once('error', reject)
			this.server!.listen(port, '127.0.0.1', () => resolve())
		})
		// A client that drops its connection (a reset while the sink stops) is an 'error' event on the
		// server; unheard, Node would raise it as an uncaught error in whichever test is running.
		this.server.on('error', (error) => this.errors.push(error))
		this.port = (this.server.server.address() as AddressInfo).port
		return this
	}

	get url() {
		return `smtp://127.0.0.1:${this.port}`
	}

	async stop() {
		const server = this.server
		this.server = null
		if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
	}
}

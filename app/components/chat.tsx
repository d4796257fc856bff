import { Link } from 'react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from '~/i18n/translation'
import { type ChatEntry } from '~/domain/messaging/chat'
import { NOTIFICATION_POLL_MS } from '~/domain/messaging/notifications'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime } from '~/utils/format'
import { usePortalApi } from '~/utils/portal-api'
import { encodeId } from '~/utils/public-id'
import { Icon } from './icon'
import { Modal } from './modal'
import { toasts } from './toaster'

export type ChatPartnerRef = { id: string; name: string }

/**
 * "Chat with …": a link to the chat page (JavaScript off); with JavaScript the same link opens
 * the chat dialog of spec §2 over the current page.
 */
export function ChatLink({
	partner,
	requestSlug,
	className = 'button button--ghost button--small',
}: {
	partner: ChatPartnerRef
	/** The request the page is about: the chat page leads back to it. */
	requestSlug?: string
	className?: string
}) {
	const { t } = useTranslation()
	const [open, setOpen] = useState(false)
	return (
		<>
			<Link
				to={`/chat/${encodeId(partner.id)}${requestSlug ? `?request=${requestSlug}` : ''}`}
				className={className}
				onClick={(event) => {
					event.preventDefault()
					setOpen(true)
				}}
			>
				<Icon name="chat" />
				<span>{t('chat.with', { name: partner.name })}</span>
			</Link>
			{open ? <ChatDialog partner={partner} onClose={() => setOpen(false)} /> : null}
		</>
	)
}

/** The conversation, the other party's messages set apart, kept scrolled to the newest. */
export function ChatLog({ entries, partnerId }: { entries: ChatEntry[]; partnerId: string }) {
	const { t } = useTranslation()
	const language = useLanguage()
	const log = useRef<HTMLOListElement>(null)
	useEffect(() => {
		if (log.current) log.current.scrollTop = log.current.scrollHeight
	}, [entries])
	if (!entries.length) return <p className="chat-log chat-log--empty">{t('chat.empty')}</p>
	return (
		// Focusable, so a keyboard can scroll the conversation (axe: scrollable-region-focusable).
		// eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
		<ol ref={log} className="chat-log" aria-live="polite" aria-label={t('chat.log')} tabIndex={0}>
			{entries.map((entry, index) => {
				const theirs = entry.sender_id === partnerId
				return (
					<li key={`${entry.created_at}-${index}`} className={`chat-message ${theirs ? 'chat-message--theirs' : 'chat-message--mine'}`}>
						<span className="visually-hidden">{theirs ? t('chat.theySaid') : t('chat.youSaid')}</span>
						<p className="chat-message__text">{entry.message}</p>
						<time className="chat-message__time" dateTime={entry.created_at}>
							{formatDateTime(entry.created_at, language)}
						</time>
					</li>
				)
			})}
		</ol>
	)
}

/** The chat dialog: loads the conversation, polls it every 15 s, sends through the JSON API. */
export function ChatDialog({ partner, onClose }: { partner: ChatPartnerRef; onClose: () => void }) {
	const { t } = useTranslation()
	const call = usePortalApi()
	const [entries, setEntries] = useState<ChatEntry[] | null>(null)
	const [text, setText] = useState('')
	const [sending, setSending] = useState(false)
	const [refused, setRefused] = useState<string | null>(null)

	const load = useCallback(async () => {
		const answer = await call<{ chats: ChatEntry[] }>('/admin/api/get-chat', { receiver_id: partner.id })
		if (!answer) return onClose()
		if (answer.ok) setEntries(answer.body.chats)
		else if (answer.status) setRefused(answer.message)
	}, [call, partner.id, onClose])

	useEffect(() => {
		window.scrollTo({ top: 0 })
		void load()
		const timer = setInterval(() => void load(), NOTIFICATION_POLL_MS)
		return () => clearInterval(timer)
		// The dialog loads once when it opens, then on the poll.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [])

	async function send(event: React.FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const message = text.trim()
		if (!message || sending) return
		setSending(true)
		const answer = await call<{ message: string }>('/admin/api/send-chat', { receiver_id: partner.id, message })
		if (!answer) return onClose()
		if (answer.ok) {
			setText('')
			await load()
		} else {
			// Unlike the original, the button comes back so the user can try again (decision 0032).
			toasts.show(answer.message || t('errors.network'), { type: 'error' })
		}
		setSending(false)
	}

	return (
		<Modal title={t('chat.title')} onClose={onClose} className="chat-dialog">
			<p className="chat-dialog__partner">{partner.name}</p>
			{refused ? (
				<p className="form-alert form-alert--error" role="alert">
					{refused}
				</p>
			) : entries === null ? (
				<p className="chat-log chat-log--empty">{t('chat.loading')}</p>
			) : (
				<ChatLog entries={entries} partnerId={partner.id} />
			)}
			{refused ? null : (
				<form className="chat-form" onSubmit={send}>
					<label className="visually-hidden" htmlFor="chat-dialog-message">
						{t('chat.messageLabel')}
					</label>
					<textarea
						id="chat-dialog-message"
						name="message"
						required
						rows={3}
						maxLength={2000}
						placeholder={t('chat.placeholder')}
						value={text}
						onChange={(event) => setText(event.target.value)}
					/>
					<button type="submit" className="button button--primary" disabled={sending}>
						{sending ? t('chat.sending') : t('chat.send')}
					</button>
				</form>
			)}
		</Modal>
	)
}

import { Link, useFetcher, useNavigate } from 'react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from '~/i18n/translation'
import { NOTIFICATION_POLL_MS, notificationTarget, type NotificationItem, type NotificationList } from '~/domain/messaging/notifications'
import { useLanguage } from '~/i18n/use-language'
import { type loader as notificationLoader } from '~/routes/_app.notifications_.$id'
import { formatDateTime } from '~/utils/format'
import { usePortalApi } from '~/utils/portal-api'
import { encodeId } from '~/utils/public-id'
import { ChatDialog } from './chat'
import { Icon } from './icon'
import { Modal } from './modal'
import { NotificationDetailView } from './notification-detail'

/**
 * The bell of the signed-in header (spec §2). Without JavaScript it is a link to the
 * notifications page. With it, the list and the count are fetched on load and every 15 seconds,
 * the bell opens the list, and opening an item marks it read (the list and count become the
 * server's answer) and goes to its target; type 1 opens a dialog about the related item.
 */
export function NotificationBell({ initialCount }: { initialCount: number }) {
	const { t } = useTranslation('account')
	const language = useLanguage()
	const call = usePortalApi()
	const navigate = useNavigate()
	const [count, setCount] = useState(initialCount)
	const [items, setItems] = useState<NotificationItem[] | null>(null)
	const [open, setOpen] = useState(false)
	const [dialogId, setDialogId] = useState<string | null>(null)
	const panel = useRef<HTMLDivElement>(null)

	// A page load's own count (after an action, say) is the newest word until the next poll.
	useEffect(() => setCount(initialCount), [initialCount])

	const apply = useCallback((list: NotificationList) => {
		setItems(list.notifications)
		setCount(list.unreadNotifications)
	}, [])

	useEffect(() => {
		let stopped = false
		const poll = async () => {
			const answer = await call<NotificationList>('/admin/api/get-notification')
			if (!stopped && answer?.ok) apply(answer.body)
		}
		void poll()
		const timer = setInterval(() => void poll(), NOTIFICATION_POLL_MS)
		return () => {
			stopped = true
			clearInterval(timer)
		}
	}, [call, apply])

	useEffect(() => {
		if (!open) return
		const onPointer = (event: PointerEvent) => {
			if (panel.current && !panel.current.parentElement?.contains(event.target as Node)) setOpen(false)
		}
		const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false)
		document.addEventListener('pointerdown', onPointer)
		document.addEventListener('keydown', onKey)
		return () => {
			document.removeEventListener('pointerdown', onPointer)
			document.removeEventListener('keydown', onKey)
		}
	}, [open])

	async function openItem(item: NotificationItem) {
		const answer = await call<NotificationList>('/admin/api/read-notification', { id: item.id })
		if (!answer) return
		if (answer.ok) apply(answer.body)
		setOpen(false)
		if (item.type === 1) setDialogId(item.id)
		else navigate(notificationTarget(item))
	}

	const label = t('shell.notifications', { count })
	return (
		<div className="bell-wrap">
			<Link
				to="/notifications"
				className="bell"
				aria-label={label}
				title={label}
				aria-expanded={open}
				aria-haspopup="true"
				onClick={(event) => {
					event.preventDefault()
					setOpen((value) => !value)
				}}
			>
				<Icon name="bell" />
				{count > 0 ? (
					<span className="bell__badge" data-testid="bell-count" aria-hidden="true">
						{count > 99 ? '99+' : count}
					</span>
				) : null}
			</Link>
			{open ? (
				<div ref={panel} className="bell-panel" role="region" aria-label={t('notifications.title')}>
					<div className="bell-panel__head">
						<strong>{t('notifications.title')}</strong>
						<Link to="/notifications" onClick={() => setOpen(false)}>
							{t('notifications.all')}
						</Link>
					</div>
					{items === null ? (
						<p className="bell-panel__empty">{t('common:chat.loading')}</p>
					) : items.length === 0 ? (
						<p className="bell-panel__empty">{t('common:empty.noNotifications')}</p>
					) : (
						<ul className="bell-panel__list">
							{items.map((item) => (
								<li key={item.id}>
									<button
										type="button"
										className={`notification-item${item.is_read ? '' : ' notification-item--unread'}`}
										onClick={() => void openItem(item)}
									>
										<span className="notification-item__message">{item.message}</span>
										<time className="notification-item__time" dateTime={item.created_at}>
											{formatDateTime(item.created_at, language)}
										</time>
									</button>
								</li>
							))}
						</ul>
					)}
				</div>
			) : null}
			{dialogId ? <NotificationDialog id={dialogId} onClose={() => setDialogId(null)} /> : null}
		</div>
	)
}

/** Type 1: a dialog about the related item, loaded from the notification's own page. */
function NotificationDialog({ id, onClose }: { id: string; onClose: () => void }) {
	const { t } = useTranslation('account')
	const fetcher = useFetcher<typeof notificationLoader>()
	const path = `/notifications/${encodeId(id)}`
	useEffect(() => {
		fetcher.load(path)
		// Loads once per dialog.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [path])
	// A chat notice opens the chat with its sender.
	if (fetcher.data?.detail.chat) return <ChatDialog partner={fetcher.data.detail.chat} onClose={onClose} />
	return (
		<Modal title={t('notifications.title')} onClose={onClose} className="notification-dialog">
			{fetcher.data ? <NotificationDetailView detail={fetcher.data.detail} /> : <p>{t('common:chat.loading')}</p>}
		</Modal>
	)
}

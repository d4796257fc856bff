import { useEffect, useRef } from 'react'
import { useTranslation } from '~/i18n/translation'
import { Icon } from './icon'

/**
 * A modal on the native <dialog>: above everything (the top layer, stacking order 999 by CSS),
 * focus kept inside, Escape and the close button end it. Rendered only while open.
 */
export function Modal({
	title,
	onClose,
	className = '',
	children,
}: {
	title: string
	onClose: () => void
	className?: string
	children: React.ReactNode
}) {
	const { t } = useTranslation()
	const dialog = useRef<HTMLDialogElement>(null)
	const close = useRef(onClose)
	useEffect(() => {
		close.current = onClose
	})
	useEffect(() => {
		const element = dialog.current
		if (!element) return
		if (!element.open) element.showModal()
		const onCancel = () => close.current()
		element.addEventListener('close', onCancel)
		return () => element.removeEventListener('close', onCancel)
	}, [])

	return (
		<dialog ref={dialog} className={`modal ${className}`} aria-label={title}>
			<header className="modal__header">
				<h2 className="modal__title">{title}</h2>
				<button type="button" className="modal__close" onClick={() => dialog.current?.close()} aria-label={t('actions.close')}>
					<Icon name="close" />
				</button>
			</header>
			<div className="modal__body">{children}</div>
		</dialog>
	)
}

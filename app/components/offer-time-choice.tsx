import { Form } from 'react-router'
import { useEffect, useRef } from 'react'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from './button-link'
import { ErrorList, FormSecurity, StatusButton, useIsPending } from './forms'

export type ShownChoice = { value: string; label: string; free: boolean }

/**
 * Choosing an offer's time on the compare page (issue 33), JavaScript or not: the offer's times as
 * radio buttons in a form that asks for the confirmation (`?confirm=select-<offer>&start=…`, the
 * server's page, as ConfirmAction does without JavaScript), the first free one chosen to start
 * with. A refused or taken time comes back with its reason and the next free ones to choose from.
 */
export function OfferTimeChoice({
	id,
	choices,
	chosen,
	sort,
	error,
}: {
	/** `select-<offer slug>`: the confirmation's id. */
	id: string
	choices: ShownChoice[]
	chosen: string | null
	sort: string
	/** The reason a time was refused, and its next free times (they replace the list). */
	error: { text: string; next: ShownChoice[] | null } | null
}) {
	const { t } = useTranslation('booking')
	const shown = error?.next ?? choices
	const checked = chosen && shown.some((choice) => choice.value === chosen && choice.free) ? chosen : (shown.find((choice) => choice.free)?.value ?? null)
	const anyFree = shown.some((choice) => choice.free)
	return (
		<Form method="get" preventScrollReset className="time-choice" action={`?#${id}-confirm`}>
			<input type="hidden" name="confirm" value={id} />
			<input type="hidden" name="sort" value={sort} />
			<fieldset className="time-choice__set" aria-describedby={error ? `${id}-error` : undefined}>
				<legend>{t('select.chooseTime')}</legend>
				{error ? (
					<div id={`${id}-error`} className="time-choice__error">
						<ErrorList errors={[error.text]} />
						{error.next ? <p>{anyFree ? t('refusals.nextFree') : t('select.noTimesLeft')}</p> : null}
					</div>
				) : null}
				<ul className="time-choice__list">
					{shown.map((choice) => (
						<li key={choice.value}>
							<label className={choice.free ? 'radio' : 'radio radio--taken'}>
								<input type="radio" name="start" value={choice.value} defaultChecked={choice.value === checked} disabled={!choice.free} />
								<span>
									{choice.label}
									{choice.free ? null : ` (${t('select.takenMark')})`}
								</span>
							</label>
						</li>
					))}
				</ul>
				{!shown.length && !error ? <p>{t('select.noTimesLeft')}</p> : null}
			</fieldset>
			{anyFree ? (
				<button type="submit" className="button button--primary">
					{t('select.select')}
				</button>
			) : null}
		</Form>
	)
}

/**
 * The confirmation of an offer and its time, in the page: the price, the time (weekday, date and
 * time in Tallinn), the workshop's address and what to bring, and the form that selects and books.
 */
export function OfferSelectConfirm({
	id,
	workshop,
	price,
	time,
	address,
	fields,
	cancelSearch,
}: {
	id: string
	workshop: string
	price: string
	time: string | null
	address: string
	fields: Record<string, string>
	cancelSearch: string
}) {
	const { t } = useTranslation(['booking', 'common'])
	const isPending = useIsPending()
	const panel = useRef<HTMLElement>(null)
	// Brought into view and focused, as ConfirmAction's question in the page is.
	useEffect(() => {
		panel.current?.focus()
	}, [])
	return (
		<section ref={panel} id={`${id}-confirm`} className="confirm-panel" tabIndex={-1} aria-labelledby={`${id}-title`}>
			<Form method="post" className="confirm" preventScrollReset>
				<h2 id={`${id}-title`} className="confirm__title">
					{t('select.confirmTitle', { workshop })}
				</h2>
				<dl className="confirm__facts">
					<div>
						<dt>{t('select.price')}</dt>
						<dd>{price}</dd>
					</div>
					{time ? (
						<div>
							<dt>{t('select.time')}</dt>
							<dd>{time}</dd>
						</div>
					) : null}
					{address ? (
						<div>
							<dt>{t('select.address')}</dt>
							<dd>{address}</dd>
						</div>
					) : null}
				</dl>
				<h3 className="confirm__bring">{t('select.bring')}</h3>
				<ul className="confirm__bring-list">
					<li>{t('select.bringPapers')}</li>
					<li>{t('select.bringKeys')}</li>
					<li>{t('select.bringParts')}</li>
				</ul>
				<p className="confirm__text">{t('select.confirmText')}</p>
				<FormSecurity />
				{Object.entries(fields).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<div className="form-actions">
					<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className="button--primary">
						{t('select.confirm')}
					</StatusButton>
					<ButtonLink to={{ search: cancelSearch }} preventScrollReset kind="ghost">
						{t('common:actions.cancel')}
					</ButtonLink>
				</div>
			</Form>
		</section>
	)
}

import { Form } from 'react-router'
import { useId } from 'react'
import { useTranslation } from '~/i18n/translation'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime } from '~/utils/format'
import { type BookingFormReply, workshopSteps } from '~/domain/booking/booking-moves'
import { canBooking, holdsTime } from '~/domain/booking/status'
import { ConfirmAction } from './confirm-action'
import { ErrorList, FormActions, FormSecurity, IntentButton } from './forms'
import { Fact } from './panel'

/**
 * A booked job (issue 33) on its two pages: the booked time, the steps with their times (within the
 * request's "Work in progress"), and each side's forms: the workshop's steps, another time proposed
 * or answered, cancelling, a no-show or "not taken" after the start. Every form works without
 * JavaScript (intents posted to the page's action; confirmations by ConfirmAction).
 */

type Job = {
	id: string
	status: string
	startsAt: string
	endsAt: string
	endedAt: string | null
	started: boolean
	cancelFreeUntil: string
	cancelFree: boolean
	change: { proposedBy: 'customer' | 'workshop'; startsAt: string; cancel: boolean } | null
	freeStarts: string[]
	steps: Array<{ step: string; at: string | null }>
}
type Viewer = 'customer' | 'workshop'
type Status = Parameters<typeof holdsTime>[0]

/** The booked time as a fact of the page's facts list. */
export function BookedTimeFact({ job }: { job: Job }) {
	const { t } = useTranslation('booking')
	const language = useLanguage()
	return (
		<Fact className="facts__row" label={t('job.bookedTime')}>
			<strong>{formatDateTime(job.startsAt, language)}</strong>
			{job.status !== 'done' && !holdsTime(job.status as Status) ? <span className="facts__more">{t(`job.ended.${job.status}`)}</span> : null}
		</Fact>
	)
}

/** The job's steps in order, each with its time once reached; a booking that ended early ends the list. */
export function BookingTimeline({ job }: { job: Job }) {
	const { t } = useTranslation('booking')
	const language = useLanguage()
	const ended = job.status !== 'done' && !holdsTime(job.status as Status)
	const steps = ended ? job.steps.filter((row) => row.at) : job.steps
	return (
		<ol className="timeline booking-timeline">
			{steps.map((row) => (
				<li key={row.step} className={`timeline__step timeline__step--${row.at ? 'reached' : 'ahead'}`}>
					<span className="timeline__dot" aria-hidden="true" />
					<span className="timeline__label">{t(`job.steps.${row.step}`)}</span>
					{row.at ? (
						<time className="timeline__time" dateTime={row.at}>
							{formatDateTime(row.at, language)}
						</time>
					) : row.step === 'booked' ? null : (
						<span className="timeline__time">{t('job.notYet')}</span>
					)}
				</li>
			))}
			{ended ? (
				<li className="timeline__step timeline__step--ended">
					<span className="timeline__dot" aria-hidden="true" />
					<span className="timeline__label">{t(`job.ended.${job.status}`)}</span>
					{job.endedAt ? (
						<time className="timeline__time" dateTime={job.endedAt}>
							{formatDateTime(job.endedAt, language)}
						</time>
					) : null}
				</li>
			) : null}
		</ol>
	)
}

/** The forms of a booked job for `viewer`; `reply` is the action's answer (a refused time, the choice kept). */
export function BookingActions({ job, viewer, reply }: { job: Job; viewer: Viewer; reply?: BookingFormReply | null }) {
	const { t } = useTranslation('booking')
	const language = useLanguage()
	const status = job.status as Status
	const fields = { bookingId: job.id }
	const other = viewer === 'customer' ? 'workshop' : 'customer'
	const steps = viewer === 'workshop' ? workshopSteps.filter((step) => canBooking(step, status, 'workshop')) : []
	const change = job.change
	return (
		<div className="stack booking-actions">
			{steps.length ? (
				<div className="form-actions">
					{steps.map((step) => (
						<IntentButton key={step} intent="bookingStep" fields={{ ...fields, step }} className="button button--primary">
							{t(`job.stepButtons.${step}`)}
						</IntentButton>
					))}
				</div>
			) : null}
			{change && change.proposedBy === other ? (
				<div className="notice notice--warning">
					<p>
						{change.cancel
							? t('change.cancelAsked', { time: formatDateTime(job.startsAt, language) })
							: t(`change.proposedBy.${other}`, { time: formatDateTime(change.startsAt, language) })}
					</p>
					<div className="form-actions">
						<IntentButton intent="answerChange" fields={{ ...fields, answer: 'accept' }} className="button button--primary">
							{t(change.cancel ? 'change.acceptCancel' : 'change.accept')}
						</IntentButton>
						<IntentButton intent="answerChange" fields={{ ...fields, answer: 'decline' }} className="button button--ghost">
							{t('change.decline')}
						</IntentButton>
					</div>
				</div>
			) : null}
			{change && change.proposedBy === viewer ? (
				<div className="notice">
					<p>{change.cancel ? t('change.ownCancelWaiting') : t('change.ownWaiting', { time: formatDateTime(change.startsAt, language) })}</p>
					<IntentButton intent="withdrawChange" fields={fields}>
						{t('change.withdraw')}
					</IntentButton>
				</div>
			) : null}
			{!change && canBooking('proposeChange', status, viewer) && !job.started ? <ProposeTime job={job} reply={reply} /> : null}
			<div className="form-actions">
				{canBooking('cancel', status, viewer) && !job.started && !(change?.cancel) ? (
					<ConfirmAction
						id="cancel-booking"
						label={t('change.cancel')}
						title={t('change.cancelTitle')}
						description={
							job.cancelFree
								? t('change.cancelFree', { until: formatDateTime(job.cancelFreeUntil, language) })
								: viewer === 'customer'
									? t('change.cancelNeedsAgreement', { until: formatDateTime(job.cancelFreeUntil, language) })
									: t('change.cancelLateWorkshop')
						}
						confirmLabel={job.cancelFree || viewer === 'workshop' ? t('change.cancelConfirm') : t('change.cancelAsk')}
						fields={{ intent: 'cancelBooking', ...fields }}
						danger
					/>
				) : null}
				{job.started && viewer === 'workshop' && canBooking('markNoShow', status, 'workshop') ? (
					<ConfirmAction
						id="no-show"
						label={t('job.noShow')}
						title={t('job.noShowTitle')}
						description={t('job.noShowText')}
						confirmLabel={t('job.noShowConfirm')}
						fields={{ intent: 'noShow', ...fields }}
						danger
					/>
				) : null}
				{job.started && viewer === 'customer' && canBooking('markNotTaken', status, 'customer') ? (
					<ConfirmAction
						id="not-taken"
						label={t('job.notTaken')}
						title={t('job.notTakenTitle')}
						description={t('job.notTakenText')}
						confirmLabel={t('job.notTakenConfirm')}
						fields={{ intent: 'notTaken', ...fields }}
						danger
					/>
				) : null}
			</div>
		</div>
	)
}

/** Another time: the workshop's next free starts as choices; a refusal stands next to them, the choice kept. */
function ProposeTime({ job, reply }: { job: Job; reply?: BookingFormReply | null }) {
	const { t } = useTranslation('booking')
	const language = useLanguage()
	const id = useId()
	const refused = reply?.intent === 'proposeTime' ? reply : null
	const errors = refused?.startsAtErrors
	return (
		<Form method="post" className="form" noValidate preventScrollReset>
			<FormSecurity intent="proposeTime" />
			<input type="hidden" name="bookingId" value={job.id} />
			<fieldset className="fieldset" aria-describedby={errors?.length ? `${id}-error` : undefined} aria-invalid={errors?.length ? true : undefined}>
				<legend className="field__label">{t('change.proposeLegend')}</legend>
				{job.freeStarts.length ? (
					<ul className="checkbox-group__list">
						{job.freeStarts.map((startsAt) => (
							<li key={startsAt}>
								<label className="checkbox">
									<input type="radio" name="startsAt" value={startsAt} defaultChecked={refused?.startsAt === startsAt} />
									<span>{formatDateTime(startsAt, language)}</span>
								</label>
							</li>
						))}
					</ul>
				) : (
					<p className="field__help">{t('change.noFreeTimes')}</p>
				)}
				<ErrorList id={`${id}-error`} errors={errors} />
			</fieldset>
			{job.freeStarts.length ? <FormActions submit={t('change.propose')} /> : null}
		</Form>
	)
}

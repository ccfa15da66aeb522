import {useId, type ReactNode} from 'react';
import {brand} from '@site/src/brand';
import Button from '@site/src/components/ui/Button';
import {fieldErrors} from '@site/src/components/ui/WidgetForm/fieldErrors';
import form from '@site/src/components/ui/WidgetForm/styles.module.css';
import BodyEditor from './BodyEditor';
import ExchangeView from './ExchangeView';
import {tryIt, useTargets, useTryIt} from './useTryIt';
import styles from './styles.module.css';

/**
 * Try it: builds a request from the contract (parameters, an example body to edit), checks it against the
 * contract field by field, signs it, sends it to the chosen sandbox and shows every step: the canonical
 * string, the signature, the raw request and a curl command that signs, then the response, whether its
 * signature verifies, whether it matches the contract, and where the object now stands.
 */
export default function TryItPanel({operationId}: {operationId: string}): ReactNode {
  const id = useId();
  const model = useTryIt(operationId);
  const targets = useTargets();
  if (!model) return <p role="alert">Try it has no operation {operationId}: rebuild the site.</p>;
  const {
    panelRef,
    resultRef,
    operation,
    values,
    setValues,
    exampleIndex,
    body,
    setBody,
    target,
    setTarget,
    keyMode,
    setKeyMode,
    pasted,
    setPasted,
    errors,
    outcome,
    shopperNote,
    timeline,
  } = model;
  const {error: fieldError, described} = fieldErrors(id, errors);

  return (
    <section ref={panelRef} className={styles.panel} aria-label="Try it">
      <p className={form.privacy}>
        Requests are signed in this browser. A key you paste or generate is held in memory as a key that cannot be read back, and never
        stored or sent: only its signatures leave the page.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          model.submit();
        }}
      >
        <h3 className={styles.operation}>
          {operation.method} {tryIt.basePath}
          {operation.path} <span className={styles.summary}>{operation.summary}</span>
        </h3>
        <div className={styles.columns}>
          <fieldset className={styles.group}>
            <legend>Send to</legend>
            {targets.map((option) => (
              <label key={option.id} className={styles.choice}>
                <input type="radio" name={`${id}-target`} checked={target === option.id} onChange={() => setTarget(option.id)} />{' '}
                {option.label}
              </label>
            ))}
          </fieldset>
          <fieldset className={styles.group}>
            <legend>Sign as</legend>
            <label className={styles.choice}>
              <input type="radio" name={`${id}-key`} checked={keyMode === 'published'} onChange={() => setKeyMode('published')} /> The test
              merchant {brand.sandboxClientId}, with its published key
            </label>
            <label className={styles.choice}>
              <input type="radio" name={`${id}-key`} checked={keyMode === 'generated'} onChange={() => setKeyMode('generated')} /> A
              merchant of my own, with a key pair made here and registered with the sandbox
            </label>
            <label className={styles.choice}>
              <input type="radio" name={`${id}-key`} checked={keyMode === 'pasted'} onChange={() => setKeyMode('pasted')} /> My own private
              key, pasted
            </label>
          </fieldset>
        </div>
        {keyMode === 'pasted' ? (
          <div className={styles.columns}>
            <div className={form.field}>
              <label htmlFor={`${id}-pem`}>Private key (PEM)</label>
              <textarea
                id={`${id}-pem`}
                rows={4}
                spellCheck={false}
                autoComplete="off"
                value={pasted.pem}
                onChange={(event) => setPasted({...pasted, pem: event.target.value})}
                {...described('pem')}
              />
              {fieldError('pem')}
            </div>
            <div className={form.field}>
              <label htmlFor={`${id}-clientId`}>Client ID</label>
              <input
                id={`${id}-clientId`}
                autoComplete="off"
                value={pasted.clientId}
                onChange={(event) => setPasted({...pasted, clientId: event.target.value})}
                {...described('clientId')}
              />
              {fieldError('clientId')}
              <label htmlFor={`${id}-keyVersion`}>Key version</label>
              <input
                id={`${id}-keyVersion`}
                inputMode="numeric"
                autoComplete="off"
                value={pasted.keyVersion}
                onChange={(event) => setPasted({...pasted, keyVersion: event.target.value})}
                {...described('keyVersion')}
              />
              {fieldError('keyVersion')}
            </div>
          </div>
        ) : null}
        {operation.parameters.length > 0 ? (
          <fieldset className={styles.group}>
            <legend>Parameters</legend>
            <div className={styles.parameters}>
              {operation.parameters.map((parameter) => (
                <div key={parameter.name} className={form.field}>
                  <label htmlFor={`${id}-${parameter.name}`}>
                    {parameter.name}{' '}
                    <span className={styles.hint}>
                      ({parameter.in}, {parameter.required ? 'required' : 'optional'})
                    </span>
                  </label>
                  {parameter.enum ? (
                    <select
                      id={`${id}-${parameter.name}`}
                      value={values[parameter.name] ?? ''}
                      onChange={(event) => setValues({...values, [parameter.name]: event.target.value})}
                      {...described(parameter.name)}
                    >
                      <option value="">{parameter.required ? 'Choose…' : '(not sent)'}</option>
                      {parameter.enum.map((value) => (
                        <option key={value}>{value}</option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={`${id}-${parameter.name}`}
                      autoComplete="off"
                      placeholder={parameter.example ?? ''}
                      value={values[parameter.name] ?? ''}
                      onChange={(event) => setValues({...values, [parameter.name]: event.target.value})}
                      {...described(parameter.name)}
                    />
                  )}
                  {fieldError(parameter.name)}
                </div>
              ))}
            </div>
          </fieldset>
        ) : null}
        {operation.bodyPointer ? (
          <div className={form.field}>
            {operation.examples.length > 1 ? (
              <>
                <label htmlFor={`${id}-example`}>Start from the example</label>
                <select id={`${id}-example`} value={exampleIndex} onChange={(event) => model.chooseExample(Number(event.target.value))}>
                  {operation.examples.map((example, index) => (
                    <option key={example.name} value={index}>
                      {example.summary || example.name}
                    </option>
                  ))}
                </select>
              </>
            ) : null}
            {operation.bodyForm ? (
              <BodyEditor
                id={id}
                bodyForm={operation.bodyForm}
                text={body}
                onText={setBody}
                errors={errors}
                onVariant={model.chooseVariant}
              />
            ) : (
              <>
                <label htmlFor={`${id}-body`}>Request body (JSON, sent exactly as written)</label>
                <textarea
                  id={`${id}-body`}
                  className={styles.code}
                  rows={Math.min(18, body.split('\n').length + 1)}
                  spellCheck={false}
                  value={body}
                  onChange={(event) => setBody(event.target.value)}
                  {...described('body')}
                />
                {fieldError('body')}
              </>
            )}
          </div>
        ) : null}
        <Button type="submit" variant="primary" disabled={outcome.status === 'sending'}>
          Send signed request
        </Button>
      </form>
      <div ref={resultRef} aria-live="polite" className={styles.result}>
        {outcome.status === 'sending' ? <p>Sending…</p> : null}
        {outcome.status === 'failed' ? (
          <p role="alert" className={form.fieldError}>
            {outcome.message}
          </p>
        ) : null}
        {shopperNote ? <p className={styles.note}>{shopperNote}</p> : null}
        {timeline.length > 0 ? (
          <details className={styles.timeline} open>
            <summary>Timeline of this panel</summary>
            <ol aria-label="Timeline of this panel">
              {timeline.map((entry, index) => (
                <li key={`${entry.at}-${index}`} data-kind={entry.kind} data-ok={entry.ok ? '' : undefined}>
                  <time>{entry.at}</time> {entry.text}
                </li>
              ))}
            </ol>
          </details>
        ) : null}
        {outcome.status === 'sent' ? (
          <ExchangeView exchange={outcome.exchange} machines={tryIt.machines} onFollowUp={model.followUp} onShopper={model.shopper} />
        ) : null}
      </div>
    </section>
  );
}

import { Link } from 'react-router';

/** An address no page answers: says so and links back to where the reader can go on. */
export function PageNotFound({ back, backLabel }: { back: string; backLabel: string }) {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no such page. <Link to={back}>{backLabel}</Link>.
      </p>
    </>
  );
}

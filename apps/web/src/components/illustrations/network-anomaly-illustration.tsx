/** A cloud with a broken signal. Drawn inline: the page that shows it must work without a network. */
export function NetworkAnomalyIllustration({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 320 220" width="320" height="220" aria-hidden="true" focusable="false">
      <ellipse cx="160" cy="196" rx="118" ry="10" fill="#EEF1F6" />
      <path d="M96 160h128a36 36 0 0 0 4-71.8A52 52 0 0 0 127 78a40 40 0 0 0-31 82z" fill="#EDF1F7" />
      <g fill="none" stroke="#B8C4D6" strokeWidth="9" strokeLinecap="round">
        <path d="M124 116a52 52 0 0 1 72 0" />
        <path d="M138 132a31 31 0 0 1 44 0" />
      </g>
      <circle cx="160" cy="150" r="7" fill="#B8C4D6" />
      <path d="M118 96l84 70" stroke="#F5A0A0" strokeWidth="8" strokeLinecap="round" />
      <g fill="#E4EAF2">
        <circle cx="54" cy="58" r="5" />
        <circle cx="270" cy="44" r="6" />
      </g>
    </svg>
  );
}

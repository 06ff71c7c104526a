/** A browser window with a warning sign. Drawn inline: the error page may be shown when files cannot load. */
export function RouteErrorIllustration({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 320 220" width="320" height="220" aria-hidden="true" focusable="false">
      <ellipse cx="160" cy="196" rx="118" ry="10" fill="#EEF1F6" />
      <rect x="70" y="46" width="180" height="132" rx="12" fill="#fff" stroke="#D3DCE8" strokeWidth="4" />
      <path d="M70 58a12 12 0 0 1 12-12h156a12 12 0 0 1 12 12v16H70z" fill="#EDF1F7" />
      <g fill="#C5D0E0">
        <circle cx="88" cy="60" r="4" />
        <circle cx="102" cy="60" r="4" />
        <circle cx="116" cy="60" r="4" />
      </g>
      <path d="M160 96l32 56h-64z" fill="#FFF4E5" stroke="#F5B867" strokeWidth="5" strokeLinejoin="round" />
      <path d="M160 114v18" stroke="#E39B3D" strokeWidth="6" strokeLinecap="round" />
      <circle cx="160" cy="142" r="3.6" fill="#E39B3D" />
      <g fill="#E4EAF2">
        <circle cx="44" cy="70" r="5" />
        <circle cx="278" cy="52" r="6" />
      </g>
    </svg>
  );
}

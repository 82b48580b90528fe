/*
   zebranb: an NBoard line driver for Gunnar Andersson's Zebra, so that gridplay's match tools and the
   Othello referee can play it. Linked against libzebra.a of an extracted Zebra source (build.sh); nothing
   of Zebra is kept in gridplay.

   usage: zebranb [-exact E] [-wld W] [-hash BITS]
     `set depth N` sets Zebra's midgame depth to N; the position is solved exactly from E empties and for
     win/loss/draw from W empties (defaults, our choice: E = N + 6, W = N + 8; Zebra's own `-l` takes all three).
   NBoard commands read: nboard, set depth, set game (a GGF game: its BO[] board and its B[]/W[] moves),
   move, ping, go, quit. Others (set contempt, hint, learn, analyze) are ignored, as NBoard allows; a bad
   line gets an `error` line on standard error. A move is answered `=== F5/0.93/0.05` (move, score in
   discs for the side to move, seconds); a pass is `PA`.
*/

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constant.h"
#include "display.h"
#include "game.h"
#include "globals.h"
#include "hash.h"
#include "moves.h"
#include "osfbook.h"
#include "search.h"
#include "threads.h"
#include "timer.h"

static int cells[100];  /* Zebra's layout: square 10 * row + col, rows and cols 1-8, row 1 on top */
static int to_move = BLACKSQ;
static int depth = 12, exact_from = -1, wld_from = -1;

static int square_of( const char *t ) {
  int c, r;
  if ( strlen( t ) < 2 ) return -1;
  c = tolower( (unsigned char) t[0] ) - 'a' + 1;
  r = t[1] - '0';
  if ( c < 1 || c > 8 || r < 1 || r > 8 ) return -1;
  return 10 * r + c;
}

static int on_board( int sq ) {
  return sq >= 11 && sq <= 88 && sq % 10 >= 1 && sq % 10 <= 8;
}

/* Plays sq for `side` on `cells`; returns how many discs it flips (0: not a legal move). */
static int play( int side, int sq, int apply ) {
  static const int dirs[8] = { -11, -10, -9, -1, 1, 9, 10, 11 };
  int other = OPP( side ), flipped = 0, d;
  if ( !on_board( sq ) || cells[sq] != EMPTY ) return 0;
  for ( d = 0; d < 8; d++ ) {
    int s = sq + dirs[d], n = 0;
    while ( on_board( s ) && cells[s] == other ) { s += dirs[d]; n++; }
    if ( n > 0 && on_board( s ) && cells[s] == side ) {
      flipped += n;
      if ( apply ) {
        int t;
        for ( t = sq + dirs[d]; t != s; t += dirs[d] ) cells[t] = side;
      }
    }
  }
  if ( apply && flipped > 0 ) cells[sq] = side;
  return flipped;
}

static int has_move( int side ) {
  int sq;
  for ( sq = 11; sq <= 88; sq++ )
    if ( play( side, sq, 0 ) ) return 1;
  return 0;
}

/* Applies a move text (a square or PA) for the side to move. */
static int apply_move( const char *t ) {
  int sq;
  if ( !strncasecmp( t, "pa", 2 ) ) {
    if ( has_move( to_move ) ) return 0;
    to_move = OPP( to_move );
    return 1;
  }
  sq = square_of( t );
  if ( sq < 0 || !play( to_move, sq, 1 ) ) return 0;
  to_move = OPP( to_move );
  return 1;
}

/* The next `tag` (B[ or W[) in `p` that is a move: one that follows `]` or `;`, not the end of PB[ or PW[. */
static const char *move_tag( const char *p, const char *tag ) {
  const char *m = p;
  while ( ( m = strstr( m, tag ) ) != NULL ) {
    if ( m == p || m[-1] == ']' || m[-1] == ';' ) return m;
    m++;
  }
  return NULL;
}

static int read_game( const char *ggf ) {
  const char *bo = strstr( ggf, "BO[8" ), *p;
  int i = 0, sq;
  if ( bo == NULL ) return 0;
  p = bo + 4;
  for ( sq = 0; sq < 100; sq++ ) cells[sq] = OUTSIDE;
  while ( i < 64 && *p && *p != ']' ) {
    int r = i / 8 + 1, c = i % 8 + 1;
    if ( isspace( (unsigned char) *p ) ) { p++; continue; }
    if ( *p == '*' || *p == 'X' || *p == 'x' || *p == 'B' ) cells[10 * r + c] = BLACKSQ;
    else if ( *p == 'O' || *p == 'o' || *p == 'W' ) cells[10 * r + c] = WHITESQ;
    else if ( *p == '-' || *p == '.' ) cells[10 * r + c] = EMPTY;
    else return 0;
    i++;
    p++;
  }
  if ( i != 64 ) return 0;
  while ( isspace( (unsigned char) *p ) ) p++;
  if ( *p == '*' || *p == 'B' ) to_move = BLACKSQ;
  else if ( *p == 'O' || *p == 'W' ) to_move = WHITESQ;
  else return 0;
  p = strchr( p, ']' );
  while ( p != NULL && *p ) {
    const char *b = move_tag( p, "B[" ), *w = move_tag( p, "W[" ), *m;
    char text[8];
    int n = 0;
    m = ( b && ( !w || b < w ) ) ? b : w;
    if ( m == NULL ) break;
    if ( ( m == b ? BLACKSQ : WHITESQ ) != to_move ) return 0;
    m += 2;
    while ( m[n] && m[n] != ']' && m[n] != '/' && n < 7 ) { text[n] = m[n]; n++; }
    text[n] = 0;
    if ( !apply_move( text ) ) return 0;
    p = m + n;
  }
  return 1;
}

/* Reads BO[8 <64 squares> <side>] and then every B[..] and W[..] of a GGF game; on an error the position
   is left as it was. */
static int set_game( const char *ggf ) {
  int saved[100], saved_side = to_move;
  memcpy( saved, cells, sizeof cells );
  if ( read_game( ggf ) ) return 1;
  memcpy( cells, saved, sizeof cells );
  to_move = saved_side;
  return 0;
}

static void go( void ) {
  EvaluationType eval_info;
  double start = get_real_timer(), secs;
  int side = BLACKSQ, move, r, c, exact, wld;
  static int first = 1;

  /* As Zebra's script mode sets up each position. */
  game_init( NULL, &side );
  set_slack( 0 );
  toggle_human_openings( FALSE );
  reset_book_search();
  set_deviation_value( 0, 60, 0.0 );
  if ( first ) { setup_hash( TRUE ); first = 0; }
  for ( r = 1; r <= 8; r++ )
    for ( c = 1; c <= 8; c++ ) board[10 * r + c] = cells[10 * r + c];
  side = to_move;
  disks_played = disc_count( BLACKSQ ) + disc_count( WHITESQ ) - 4;
  /* compute_move generates the moves from the bitboards before it refreshes them: refresh them first, or a
     side that must pass is given the last searched position's moves. */
  set_board_bits();
  exact = exact_from >= 0 ? exact_from : depth + 6;
  wld = wld_from >= 0 ? wld_from : depth + 8;
  start_move( 100000000, 0, disks_played + 4 );
  determine_move_time( 100000000, 0, disks_played + 4 );
  move = compute_move( side, TRUE, 100000000, 0, FALSE, FALSE, depth, exact, wld, TRUE, &eval_info );
  secs = get_real_timer() - start;
  if ( move == PASS )
    printf( "=== PA/0/%.3f\n", secs );
  else
    printf( "=== %c%c/%.2f/%.3f\n", TO_SQUARE( move ), eval_info.score / 128.0, secs );
  fflush( stdout );
}

int main( int argc, char *argv[] ) {
  char line[65536];
  int hash_bits = 22, i, sq;
  for ( i = 1; i < argc; i++ ) {
    if ( !strcmp( argv[i], "-exact" ) && i + 1 < argc ) exact_from = atoi( argv[++i] );
    else if ( !strcmp( argv[i], "-wld" ) && i + 1 < argc ) wld_from = atoi( argv[++i] );
    else if ( !strcmp( argv[i], "-hash" ) && i + 1 < argc ) hash_bits = atoi( argv[++i] );
    else {
      fprintf( stderr, "usage: zebranb [-exact EMPTIES] [-wld EMPTIES] [-hash BITS]\n" );
      return 2;
    }
  }
  echo = FALSE;
  display_pv = FALSE;
  global_setup( FALSE, hash_bits );
  threads_init( 1 );
  toggle_status_log( FALSE );
  for ( sq = 0; sq < 100; sq++ ) cells[sq] = OUTSIDE;
  if ( !set_game( "BO[8 ---------------------------O*------*O--------------------------- *]" ) ) return 1;
  while ( fgets( line, sizeof line, stdin ) ) {
    char *nl = strpbrk( line, "\r\n" );
    if ( nl ) *nl = 0;
    if ( !strncmp( line, "nboard", 6 ) ) {
      printf( "set myname Zebra\n" );
      fflush( stdout );
    }
    else if ( !strncmp( line, "set depth ", 10 ) ) {
      int d = atoi( line + 10 );
      if ( d < 1 || d > 60 ) fprintf( stderr, "error: depth `%s` is not 1-60\n", line + 10 );
      else depth = d;
    }
    else if ( !strncmp( line, "set game ", 9 ) ) {
      if ( !set_game( line + 9 ) ) fprintf( stderr, "error: cannot read the game `%s`\n", line + 9 );
    }
    else if ( !strncmp( line, "move ", 5 ) ) {
      if ( !apply_move( line + 5 ) ) fprintf( stderr, "error: `%s` is not a legal move here\n", line + 5 );
    }
    else if ( !strncmp( line, "ping", 4 ) ) {
      printf( "pong%s\n", line + 4 );
      fflush( stdout );
    }
    else if ( !strcmp( line, "go" ) )
      go();
    else if ( !strcmp( line, "quit" ) )
      break;
  }
  threads_shutdown();
  global_terminate();
  return 0;
}

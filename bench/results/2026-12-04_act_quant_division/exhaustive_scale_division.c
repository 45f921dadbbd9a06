// Session 35: exhaustive host check of formats/scale_division.h's quotient (without the 2^100
// prescale, which applies only below 2^-80): every significand of s for exponents -80..118, six
// quotients each (|x| <= 448 s at random, any magnitude, next to e4m3 midpoints). gcc -O2
// -march=native -o mk2 exhaustive_scale_division.c -lm && ./mk2 full (~10 min). Output: exhaustive_scale_division.txt
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static inline uint32_t fb(float f){uint32_t u;memcpy(&u,&f,4);return u;}
static inline float bf(uint32_t u){float f;memcpy(&f,&u,4);return f;}
static uint64_t st=88172645463325252ull;
static inline uint64_t rnd(){st^=st<<13;st^=st>>7;st^=st<<17;return st;}
int main(int argc,char**argv){
  long long bad=0,badsmall=0,n=0;
  int step = argc>1?1:5;
  for(int e=-80;e<=118;e+= (argc>1? 1: 9)) for(uint32_t m=0;m<(1u<<23);m+=step){
    float s=bf(((uint32_t)(e+127)<<23)|m);
    float r=1.0f/s;
    for(int k=0;k<6;++k){
      float x; uint64_t v=rnd();
      if(k<2){ x = s*448.0f*((float)(v>>40)/(float)(1<<24)); }
      else if(k==2){ x = bf((uint32_t)(v>>33)); if(!(fabsf(x)<=448.0f*s)) x=0.0f; } // any magnitude incl subnormal
      else { int ee=(int)(v%19)-10; float mid=ldexpf(1.0f+((v>>8)%16)/16.0f+1.0f/32,ee);
        float xx=mid*s; x=bf(fb(xx)+(int)((v>>20)%7)-3); }
      if(v&4) x=-x;
      float y=x*r; float rem=fmaf(-y,s,x); float q=copysignf(fmaf(rem,r,y),x);
      float want=x/s; n++;
      if(fb(q)!=fb(want)){ if(fabsf(want)<0x1p-11f && fabsf(q)<0x1p-11f && signbit(q)==signbit(want)) badsmall++; else { if(bad<10) printf("s=%a x=%a q=%a want=%a\n",s,x,q,want); bad++; } }
    }
  }
  printf("n=%lld bad=%lld tiny-only=%lld\n",n,bad,badsmall); return 0;}
